// SCIM projection (RFC 7644 §3.4.2.5 and §3.9; specification "SCIM 2.0 API" rule 2): `attributes`
// replaces the default set, `excludedAttributes` removes from it, sub-attributes select within their
// parent, names are case-insensitive, and `id` (returned "always") stays. Each check reads a user it
// created itself with every default attribute the judgement names, by id and by a filtered list.
// `password` (returned "never") is requested too: the invariant judges every answer for it.
import fc from 'fast-check';
import { describeResponse, fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { memo, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { createUser, literal, postUser, uniqueName, userBody } from '../_harness/scim/records.js';

const WRITES = { write: ['scim.users'] } as const;

/** The default attributes the user has (RFC 7643 §4.1, returned "default"). */
const DEFAULTS = ['userName', 'name', 'emails', 'title', 'displayName'] as const;
type Attr = (typeof DEFAULTS)[number];

const fullUser = (): Json => ({
  name: { givenName: 'Lpcgiven', familyName: 'Lpcfamily' },
  emails: [{ value: 'lpc.projection@example.com', type: 'work', primary: true }],
  title: 'Projection check',
  displayName: 'Lpc Projection',
  password: 'Lpc-never-returned-1',
});

const userOf = (): ((t: CheckContext) => Promise<Json & { id: string; userName: string }>) => memo((t) => createUser(t, 'pj', fullUser()));

type Via = 'get' | 'list';
const via: fc.Arbitrary<Via> = fc.constantFrom('get', 'list');

/** The user as GET /Users/{id} or a list filtered on its userName answers it with the query. */
async function read(t: CheckContext, user: { id: string; userName: string }, how: Via, query: Record<string, string>): Promise<{ r: Json; res: ApiResponse }> {
  if (how === 'get') {
    const res = await t.http.send({ op: 'scim.users.get', params: { id: user.id }, query });
    if (res.status !== 200 || typeof res.json !== 'object' || res.json === null) fail('200 with the user', describeResponse(res), res);
    return { r: res.json as Json, res };
  }
  const res = await t.http.send({ op: 'scim.users.list', query: { filter: `userName eq ${literal(user.userName)}`, ...query } });
  const list = (res.json as Json | undefined)?.Resources;
  if (res.status !== 200 || !Array.isArray(list) || list.length !== 1) fail('200 with a ListResponse holding the one user', describeResponse(res), res);
  return { r: list[0] as Json, res };
}

/** Unassigned: absent, null, or empty (RFC 7643 §2.5). */
const assigned = (v: unknown): boolean =>
  v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

const queryText = (q: Record<string, string>): string =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');

/** The resource holds exactly `present` of the default attributes, and none of the others. */
function expectDefaults(r: Json, present: readonly Attr[], q: Record<string, string>, res: ApiResponse): void {
  const has = DEFAULTS.filter((a) => assigned(r[a]));
  const missing = present.filter((a) => !has.includes(a));
  const extra = has.filter((a) => !present.includes(a));
  if (missing.length + extra.length > 0)
    fail(
      `with ${queryText(q)}: of ${DEFAULTS.join(', ')} exactly ${present.join(', ') || 'none'}`,
      `${has.join(', ') || 'none'}${missing.length ? ` (missing ${missing.join(', ')})` : ''}${extra.length ? ` (not asked for: ${extra.join(', ')})` : ''}`,
      res,
    );
}

{
  const user = userOf();
  requirement(
    {
      id: 'scim.projection.attributes-replaces-default',
      level: 'MUST',
      spec: 'rfc7644#section-3.9',
      title: 'attributes returns the attributes named and none of the other default attributes',
    },
    async (t) => {
      const u = await user(t);
      await t.property(fc.record({ how: via, attr: fc.constantFrom(...DEFAULTS) }), async ({ how, attr }) => {
        const q = { attributes: attr };
        const { r, res } = await read(t, u, how, q);
        expectDefaults(r, [attr], q, res);
      });
    },
    WRITES,
  );
}

{
  const user = userOf();
  requirement(
    {
      id: 'scim.projection.excluded-attributes',
      level: 'MUST',
      spec: 'rfc7644#section-3.9',
      title: 'excludedAttributes removes the attributes named and keeps the other default attributes',
    },
    async (t) => {
      const u = await user(t);
      const excludable = DEFAULTS.filter((a) => a !== 'userName');
      await t.property(fc.record({ how: via, attr: fc.constantFrom(...excludable) }), async ({ how, attr }) => {
        const q = { excludedAttributes: attr };
        const { r, res } = await read(t, u, how, q);
        expectDefaults(
          r,
          DEFAULTS.filter((a) => a !== attr),
          q,
          res,
        );
      });
    },
    WRITES,
  );
}

{
  const user = userOf();
  const forms: Record<string, string>[] = [
    { attributes: 'userName' },
    { attributes: 'title' },
    { attributes: 'password' },
    { excludedAttributes: 'id' },
    { excludedAttributes: 'id,userName' },
  ];
  requirement(
    {
      id: 'scim.projection.id-always',
      level: 'MUST',
      spec: 'rfc7644#section-3.9',
      title: 'id is returned whatever attributes or excludedAttributes say (returned "always")',
    },
    async (t) => {
      const u = await user(t);
      await t.property(fc.record({ how: via, q: fc.constantFrom(...forms) }), async ({ how, q }) => {
        const { r, res } = await read(t, u, how, q);
        if (r.id !== u.id) fail(`with ${queryText(q)}: id ${u.id}`, `id ${JSON.stringify(r.id)}`, res);
      });
    },
    WRITES,
  );
}

{
  const user = userOf();
  type Form = { q: Record<string, string>; judge: (r: Json) => string | undefined };
  const sub = (v: unknown, k: string): unknown => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json)[k] : undefined);
  const forms: Form[] = [
    {
      q: { attributes: 'name.givenName' },
      judge: (r) => (assigned(sub(r.name, 'givenName')) && !assigned(sub(r.name, 'familyName')) ? undefined : 'name.givenName without name.familyName'),
    },
    {
      q: { excludedAttributes: 'name.familyName' },
      judge: (r) => (assigned(sub(r.name, 'givenName')) && !assigned(sub(r.name, 'familyName')) ? undefined : 'name.givenName without name.familyName'),
    },
    {
      q: { attributes: 'emails.value' },
      judge: (r) => {
        const e = Array.isArray(r.emails) ? (r.emails as Json[]) : [];
        return e.length > 0 && e.every((x) => assigned(x.value) && !assigned(x.type)) ? undefined : 'emails holding value without type';
      },
    },
  ];
  requirement(
    {
      id: 'scim.projection.sub-attributes',
      level: 'MUST',
      spec: 'rfc7644#section-3.9',
      title: 'A sub-attribute in attributes or excludedAttributes selects within its parent, not all of it',
    },
    async (t) => {
      const u = await user(t);
      await t.property(fc.record({ how: via, form: fc.constantFrom(...forms) }), async ({ how, form }) => {
        const { r, res } = await read(t, u, how, form.q);
        const wanted = form.judge(r);
        if (wanted !== undefined) fail(`with ${queryText(form.q)}: ${wanted}`, `name ${JSON.stringify(r.name)}, emails ${JSON.stringify(r.emails)}`, res);
      });
    },
    WRITES,
  );
}

{
  const user = userOf();
  const forms: { q: Record<string, string>; present: Attr[] }[] = [
    { q: { attributes: 'USERNAME' }, present: ['userName'] },
    { q: { attributes: 'Title' }, present: ['title'] },
    { q: { excludedAttributes: 'EMAILS' }, present: ['userName', 'name', 'title', 'displayName'] },
    { q: { excludedAttributes: 'displayname' }, present: ['userName', 'name', 'emails', 'title'] },
  ];
  requirement(
    {
      id: 'scim.projection.names-case-insensitive',
      level: 'MUST',
      spec: 'rfc7643#section-2.1',
      title: 'Attribute names in attributes and excludedAttributes are case-insensitive',
    },
    async (t) => {
      const u = await user(t);
      await t.property(fc.record({ how: via, form: fc.constantFrom(...forms) }), async ({ how, form }) => {
        const { r, res } = await read(t, u, how, form.q);
        expectDefaults(r, form.present, form.q, res);
      });
    },
    WRITES,
  );
}

requirement(
  {
    id: 'scim.projection.attributes-on-create',
    level: 'MUST',
    spec: 'rfc7644#section-3.9',
    title: 'POST /Users?attributes=userName answers the created user with userName and id only',
  },
  async (t) => {
    const q = { attributes: 'userName' };
    const body = userBody(uniqueName(t, 'pj'), fullUser());
    const res = await postUser(t, body, q);
    if (res.status !== 201 || typeof res.json !== 'object' || res.json === null) fail('201 with the created user', describeResponse(res), res);
    expectDefaults(res.json as Json, ['userName'], q, res);
  },
  WRITES,
);

{
  const user = userOf();
  requirement(
    {
      id: 'scim.projection.attributes-on-replace',
      level: 'MUST',
      spec: 'rfc7644#section-3.9',
      title: 'PUT /Users/{id}?attributes=userName answers the user with userName and id only',
    },
    async (t) => {
      const u = await user(t);
      const q = { attributes: 'userName' };
      const res = await t.http.send({ op: 'scim.users.replace', params: { id: u.id }, json: userBody(u.userName, fullUser()), query: q });
      if (res.status !== 200 || typeof res.json !== 'object' || res.json === null) fail('200 with the replaced user', describeResponse(res), res);
      expectDefaults(res.json as Json, ['userName'], q, res);
    },
    WRITES,
  );
}
