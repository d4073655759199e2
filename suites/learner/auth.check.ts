// Authentication of the learner API (spec#learner-facing-api-1: a token is used; the issuing is the
// reference server's choice: POST /token with x-api-key and a learner's username and password, a
// Bearer token on every call, a new token revoking the learner's previous one).
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';

const AUTH = 'spec#learner-facing-api-1';
/** Asks for a new learner token, which revokes the session's (scheduler.ts). */
const ROTATES = { rotatesSession: true };

requirement(
  { id: 'learner.auth.missing-key-401', level: 'PROFILE', spec: AUTH, title: 'A learner API request without x-api-key, or with a wrong one, answers 401' },
  async (t) => {
    expectStatus(await t.http.send({ op: 'learner.catalog.list', apiKey: 'none' }), 401, 'without x-api-key');
    expectStatus(await t.http.send({ op: 'learner.branding.get', apiKey: 'lpc-wrong-key-0000' }), 401, 'with a wrong x-api-key');
  },
);

requirement(
  { id: 'learner.auth.missing-token-401', level: 'PROFILE', spec: AUTH, title: 'A learner API request without a bearer token answers 401' },
  async (t) => {
    expectStatus(await t.http.send({ op: 'learner.catalog.list', token: 'none' }), 401, 'without Authorization');
  },
);

requirement(
  { id: 'learner.auth.wrong-token-401', level: 'PROFILE', spec: AUTH, title: 'A learner API request with a token the target never issued answers 401' },
  async (t) => {
    expectStatus(await t.http.send({ op: 'learner.branding.get', token: { literal: 'Bearer lpc-not-a-token-0000' } }), 401, 'with a wrong token');
  },
);

/** The learner credentials' token-exchange body, with `change` applied; skips on a token-only profile. */
function credentialsBody(t: CheckContext, change: Record<string, string | undefined>): Record<string, string> {
  const c = t.profile.familyCredentials.learner;
  if (!c.username || !c.password) t.skip('the profile gives a learner token, not credentials to obtain one');
  const username = process.env[c.username.env];
  const password = process.env[c.password.env];
  if (!username || !password) t.skip(`${c.username.env} or ${c.password.env} is not set`);
  const body: Record<string, string | undefined> = { username, password, ...change };
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Sends the token exchange with a body that must be refused; a token issued anyway revoked the
 * session's, which then takes a fresh one so that only this check fails. */
async function expectRefused(t: CheckContext, body: Record<string, string>, status: number): Promise<void> {
  const res = await t.http.send({ op: 'learner.auth.token', json: body });
  const token = (res.json as { access_token?: unknown } | undefined)?.access_token;
  if (typeof token === 'string') t.secrets.remember('LPC_NEW_LEARNER_TOKEN', token);
  if (res.status >= 200 && res.status < 300) await t.secrets.authenticate('learner').catch(() => undefined);
  expectStatus(res, status);
}

requirement(
  { id: 'learner.auth.token-wrong-password-401', level: 'PROFILE', spec: AUTH, title: 'The learner token exchange answers a wrong password with 401' },
  async (t) => {
    await expectRefused(t, credentialsBody(t, { password: 'lpc-wrong-password-0000' }), 401);
  },
  ROTATES,
);

requirement(
  { id: 'learner.auth.token-missing-field-400', level: 'PROFILE', spec: AUTH, title: 'The learner token exchange answers a body without password with 400' },
  async (t) => {
    await expectRefused(t, credentialsBody(t, { password: undefined }), 400);
  },
  ROTATES,
);

requirement(
  { id: 'learner.auth.reissue-revokes-previous', level: 'PROFILE', spec: AUTH, title: "A new learner token invalidates the learner's previous token" },
  async (t) => {
    credentialsBody(t, {});
    const previous = await t.secrets.token('learner');
    const fresh = await t.secrets.authenticate('learner');
    if (fresh.value === previous.value) fail('a new token from the token exchange', 'the same token again');
    const res = await t.http.send({ op: 'learner.catalog.list', token: { env: 'LPC_PREVIOUS_LEARNER_TOKEN', value: previous.value } });
    if (res.status !== 401) fail('401 with the previous token', describeResponse(res), res);
  },
  ROTATES,
);
