// SCIM resource versions (RFC 7644 §3.14; RFC 7643 §3.1 meta.version; RFC 9110 §13.1): when the
// target declares them (/ServiceProviderConfig etag.supported, else the profile's `etag`), a user's
// answers carry an ETag header equal to meta.version, the version changes when the user is modified
// and only then, If-Match with a stale version is refused 412 and with the current one applied, and
// If-None-Match with the current one answers 304. Each check works on a user it creates.
import { fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { blockedBy, notSetUp } from '../_harness/outcomes.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { requireVersions } from '../_harness/scim/capabilities.js';
import { createUser, metaOf, putUser, resourceOf, userBody } from '../_harness/scim/records.js';

const WRITES = { write: ['scim.users'] } as const;

const get = (t: CheckContext, id: string, headers?: Record<string, string>): Promise<ApiResponse> =>
  t.http.send({ op: 'scim.users.get', params: { id }, ...(headers ? { headers } : {}) });

/** The ETag of a user's GET; a GET without one blocks the check (scim.etag.header-equals-meta-version
 * judges the header: one deviation, one failure). */
async function versionOf(t: CheckContext, id: string): Promise<string> {
  const res = await get(t, id);
  if (res.status !== 200) notSetUp(res, 'the user the check created, read back');
  const tag = res.headers.etag;
  if (tag === undefined || tag === '') blockedBy('scim.etag.header-equals-meta-version', 'GET of the user answered no ETag header', res);
  return tag;
}

/** The user's version, read twice: a version that changes between reads is scim.etag.stable-without-modification's
 * failure, and leaves a precondition on it nothing to judge. */
async function stableVersionOf(t: CheckContext, id: string): Promise<string> {
  const tag = await versionOf(t, id);
  const again = await get(t, id);
  if (again.headers.etag !== tag)
    blockedBy('scim.etag.stable-without-modification', `the ETag changed between two reads (${tag}, then ${again.headers.etag ?? 'none'})`, again);
  return tag;
}

/** A PUT that changes the user (its givenName), with the headers given; the answer. */
const change = (t: CheckContext, user: { id: string; userName: string }, givenName: string, headers?: Record<string, string>): Promise<ApiResponse> =>
  putUser(t, user.id, userBody(user.userName, { name: { givenName, familyName: 'Check' } }), undefined, headers);

const changed = async (t: CheckContext, user: { id: string; userName: string }, givenName: string): Promise<void> => {
  const res = await change(t, user, givenName);
  if (res.status !== 200) notSetUp(res, 'a PUT that changes the user (its givenName)');
};

requirement(
  {
    id: 'scim.etag.header-equals-meta-version',
    level: 'MUST',
    spec: 'rfc7644#section-3.14',
    title: "A user's GET answers an ETag header, and meta.version, when given, is the same value",
  },
  async (t) => {
    await requireVersions(t);
    const user = await createUser(t, 'et');
    const res = await get(t, user.id);
    const tag = res.headers.etag;
    if (tag === undefined || tag === '') fail('an ETag header on GET of a user (the target declares versions)', 'no ETag header', res);
    const version = metaOf(resourceOf(res)).version;
    if (version !== undefined && version !== tag)
      fail(`meta.version equal to the ETag header ${tag} (RFC 7643 §3.1)`, `meta.version ${JSON.stringify(version)}`, res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.etag.changes-on-modification',
    level: 'MUST',
    spec: 'rfc7644#section-3.14',
    title: "A user's ETag changes when a PUT modifies the user",
  },
  async (t) => {
    await requireVersions(t);
    const user = await createUser(t, 'ec');
    const before = await versionOf(t, user.id);
    await changed(t, user, 'Changed');
    const res = await get(t, user.id);
    if (res.headers.etag === before) fail(`an ETag other than ${before} after the user was modified`, `ETag ${before} again`, res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.etag.stable-without-modification',
    level: 'MUST',
    spec: 'rfc7644#section-3.14',
    title: "A user's ETag stays the same over reads that modify nothing",
  },
  async (t) => {
    await requireVersions(t);
    const user = await createUser(t, 'es');
    const first = await versionOf(t, user.id);
    await get(t, user.id);
    const res = await get(t, user.id);
    if (res.headers.etag !== first) fail(`the ETag ${first} again (nothing was modified)`, `ETag ${res.headers.etag ?? '(none)'}`, res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.etag.if-match-stale-412',
    level: 'MUST',
    spec: 'rfc7644#section-3.14',
    title: 'A PUT with If-Match naming a version the user no longer has answers 412 and changes nothing',
  },
  async (t) => {
    await requireVersions(t);
    const user = await createUser(t, 'em');
    const stale = await stableVersionOf(t, user.id);
    await changed(t, user, 'Current');
    const current = await versionOf(t, user.id);
    if (current === stale) blockedBy('scim.etag.changes-on-modification', `the ETag stayed ${stale} after a PUT modified the user`);
    const res = await change(t, user, 'Stale', { 'If-Match': stale });
    if (res.status !== 412) fail(`412 Precondition Failed to If-Match ${stale} (the version before the last PUT)`, `${res.status}`, res);
    const now = await get(t, user.id);
    const given = (resourceOf(now).name as { givenName?: unknown } | undefined)?.givenName;
    if (given !== 'Current') fail('the user as the last successful PUT left it (givenName "Current")', `givenName ${JSON.stringify(given)}`, now);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.etag.if-match-current-applied',
    level: 'MUST',
    spec: 'rfc7644#section-3.14',
    title: 'A PUT with If-Match naming the current version is applied (200)',
  },
  async (t) => {
    await requireVersions(t);
    const user = await createUser(t, 'ea');
    const current = await stableVersionOf(t, user.id);
    const res = await change(t, user, 'Matched', { 'If-Match': current });
    if (res.status !== 200) fail(`200 to If-Match ${current} (the user's current version)`, `${res.status}`, res);
  },
  WRITES,
);

requirement(
  {
    id: 'scim.etag.if-none-match-304',
    level: 'SHOULD',
    spec: 'rfc7644#section-3.14',
    title: 'A GET with If-None-Match naming the current version answers 304 Not Modified',
  },
  async (t) => {
    await requireVersions(t);
    const user = await createUser(t, 'en');
    const current = await stableVersionOf(t, user.id);
    const res = await get(t, user.id, { 'If-None-Match': current });
    if (res.status !== 304) fail(`304 Not Modified to If-None-Match ${current} (the user's current version)`, `${res.status}`, res);
  },
  WRITES,
);
