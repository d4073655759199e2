// A check's writes are declared (uses, scheduler.ts): the client refuses, before sending, a write
// to a collection the check did not declare, a new token the check did not declare it asks for, and
// a token of a session other than its family's. The error carries no exchange and no code, so the
// runner reports it as the harness's own (cause 'harness'), not the target's.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../reference-impl/index.js';
import { loadProfile, withTarget, type Profile } from '../../src/profile/index.js';
import { createSecrets } from '../../src/target/secrets.js';
import { Client, exchangeOf, Recorder } from '../../suites/_harness/http.js';
import type { Uses } from '../../suites/_harness/scheduler.js';

const credentials = { apiKey: 'key-declared-31f0', username: 'user-declared', password: 'pass-declared-77aa', privateKey: 'priv-declared-0c5e' };
const env = {
  LPC_API_KEY: credentials.apiKey,
  LPC_USERNAME: credentials.username,
  LPC_PASSWORD: credentials.password,
  LPC_PRIVATE_KEY: credentials.privateKey,
};

let server: ReferenceServer;
let profile: Profile;
beforeAll(async () => {
  server = createReferenceServer({ families: { intapi: { credentials } } });
  profile = withTarget(loadProfile(undefined), await server.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(() => server.close());

function client(uses: Uses | undefined): { http: Client; recorder: Recorder } {
  const recorder = new Recorder('intapi.test.declared');
  const http = new Client(profile, createSecrets(profile, 10_000, env), recorder, { timeoutMs: 10_000, ...(uses ? { uses } : {}) });
  return { http, recorder };
}

const submission = {
  userId: '00000000-0000-4000-8000-000000000001',
  templateId: '00000000-0000-4000-8000-000000000201',
  title: 'declared',
  completionDate: '2024-05-01T10:00:00.000Z',
};

describe('undeclared writes are a harness error', () => {
  test.each([
    ['nothing declared', undefined],
    ['empty uses', {}],
    ['another collection written', { write: ['questionBanks'] }],
  ])('a POST to submissions with %s throws before sending', async (_name, uses) => {
    const { http, recorder } = client(uses);
    const error = await http.send({ op: 'submissions.create', json: submission }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^harness: check intapi\.test\.declared writes submissions \(submissions\.create\) without declaring it/);
    // Not the target's: no exchange, no error code (what makes the runner's cause 'harness').
    expect(exchangeOf(error)).toBeUndefined();
    expect((error as { code?: unknown }).code).toBeUndefined();
    expect(recorder.requests).toBe(0);
  });

  test('a new token without rotatesSession throws before sending', async () => {
    const { http, recorder } = client({ write: ['submissions'] });
    await expect(http.send({ op: 'auth.authenticate', json: {} })).rejects.toThrow(
      /harness: check intapi\.test\.declared calls auth\.authenticate without declaring rotatesSession/,
    );
    expect(recorder.requests).toBe(0);
  });

  test("another family's session token throws before sending: the scheduler keeps a check apart from a new token of its own session only", async () => {
    const { http, recorder } = client(undefined);
    await expect(http.send({ op: 'learner.catalog.list' })).rejects.toThrow(
      /^harness: check intapi\.test\.declared sends the learner session's token, not its own \(intapi\)/,
    );
    expect(recorder.requests).toBe(0);
  });

  test('reads need no declaration; declared writes and observed rejections are sent', async () => {
    expect((await client(undefined).http.send({ op: 'templates.list' })).status).toBe(200);
    expect((await client({ write: ['submissions'] }).http.send({ op: 'submissions.create', json: submission })).status).toBe(201);
    // An observer of a collection may send a write the rule says changes nothing.
    expect((await client({ observe: ['submissions'] }).http.send({ op: 'submissions.create', json: { ...submission, title: 'x'.repeat(256) } })).status).toBe(
      422,
    );
    expect(
      (
        await client({ rotatesSession: true }).http.send({
          op: 'auth.authenticate',
          json: { username: credentials.username, password: credentials.password, privateKey: credentials.privateKey },
        })
      ).status,
    ).toBe(200);
  });
});
