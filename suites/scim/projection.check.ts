// SCIM projection (RFC 7644 §3.4.2.5 and §3.9; specification "SCIM 2.0 API" rule 2): `attributes`
// replaces the default set, `excludedAttributes` removes from it, sub-attributes select within their
// parent, names are case-insensitive, and `id` (returned "always") stays. Each check reads a user it
// created itself with every default attribute the judgement names (those of RFC 7643 §4.1 the
// target's User has, GET /Schemas), by id and by a list filtered on its userName.
// `password` (returned "never") is requested too: the invariant judges every answer for it.
import fc from 'fast-check';
import { describeResponse, fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { blockedBy } from '../_harness/outcomes.js';
import { memo, type Json } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { createUser, literal, postUser, putUser, uniqueName, userBody } from '../_harness/scim/records.js';
import { hasAttribute, scimTargetOf, supportsAttribute, supportsOperator, uniqueEmail } from '../_harness/scim/target.js';

const WRITES = { write: ['scim.users'] } as const;

/** The default attributes a user can have (RFC 7643 §4.1, returned "default"); a check judges those the target's User has. */
const DEFAULTS = ['userName', 'name', 'emails', 'title', 'displayName'] as const;
type Attr = (typeof DEFAULTS)[number];

/** The checks that own `attributes` and `excludedAttributes` as such: a check about something narrower is blocked by them. */
const ATTRIBUTES_CHECK = 'scim.projection.attributes-replaces-default';
const EXCLUDED_CHECK = 'scim.projection.excluded-attributes';

const fullUser = (t: CheckContext): Json => ({
  name: { givenName: 'Lpcgiven', familyName: 'Lpcfamily' },
  emails: [{ value: uniqueEmail(t, 'projection'), type: 'work', primary: true }],
  title: 'Projection check',
  displayName: 'Lpc Projection',
  password: 'Lpc-never-returned-1',
});

interface Projected {
  user: Json & { id: string; userName: string };
  /** The default attributes the target's User has (and the user holds). */
  defaults: Attr[];
  /** How the check may read the user: by id, and by a list filtered on userName eq where the target filters so. */
  vias: Via[];
}

const userOf = (): ((t: CheckContext) => Promise<Projected>) =>
  memo(async (t) => {
    const target = await scimTargetOf(t);
    const byList = supportsOperator(target.filter, 'eq') && supportsAttribute(target.filter, 'userName');
    return {
      user: await createUser(t, 'pj', fullUser(t)),
      defaults: DEFAULTS.filter((a) => hasAttribute(target.schema, a)),
      vias: byList ? ['get', 'list'] : ['get'],
    };
  });

type Via = 'get' | 'list';
const via = (p: Projected): fc.Arbitrary<Via> => fc.constantFrom(...p.vias);

/** The user as GET /Users/{id} or a list filtered on its userName answers it with the query. */
async function read(t: CheckContext, user: { id: string; userName: string }, how: Via, query: Record<string, string>): Promise<{ r: Json; res: ApiResponse }> {
  if (how === 'get') {
    const res = await t.http.send({ op: 'scim.users.get', params: { id: user.id }, query });
    if (res.status !== 200 || typeof res.json !== 'object' || res.json === null) fail('200 with the user', describeResponse(res), res);
    return { r: res.json as Json, res };
  }
  const res = await t.http.send({ op: 'scim.users.list', query: { filter: `userName eq ${literal(user.userName)}`, ...query } });
  const list = (res.json as Json | undefined)?.Resources;
  if (res.status !== 200) fail('200 with a ListResponse holding the one user', describeResponse(res), res);
  // The list of the one match not holding it (once) is the paging's deviation, not the projection's.
  if (!Array.isArray(list) || list.length !== 1)
    blockedBy('scim.pagination.walk-exactly-once', `the list of the one user matching userName eq answered ${describeResponse(res)}`, res);
  return { r: list[0] as Json, res };
}

/** Unassigned: absent, null, or empty (RFC 7643 §2.5). */
const assigned = (v: unknown): boolean =>
  v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

const queryText = (q: Record<string, string>): string =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');

/** The resource holds exactly `present` of the default attributes `defaults`, and none of the others. */
function expectDefaults(r: Json, defaults: readonly Attr[], present: readonly Attr[], q: Record<string, string>, res: ApiResponse): void {
  const has = defaults.filter((a) => assigned(r[a]));
  const missing = present.filter((a) => !has.includes(a));
  const extra = has.filter((a) => !present.includes(a));
  if (missing.length + extra.length > 0)
    fail(
      `with ${queryText(q)}: of ${defaults.join(', ')} exactly ${present.join(', ') || 'none'}`,
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
      const p = await user(t);
      await t.property(fc.record({ how: via(p), attr: fc.constantFrom(...p.defaults) }), async ({ how, attr }) => {
        const q = { attributes: attr };
        const { r, res } = await read(t, p.user, how, q);
        expectDefaults(r, p.defaults, [attr], q, res);
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
      const p = await user(t);
      const excludable = p.defaults.filter((a) => a !== 'userName');
      t.requireData(excludable.length > 0, "the target's User has no default attribute but userName to exclude");
      await t.property(fc.record({ how: via(p), attr: fc.constantFrom(...excludable) }), async ({ how, attr }) => {
        const q = { excludedAttributes: attr };
        const { r, res } = await read(t, p.user, how, q);
        expectDefaults(
          r,
          p.defaults,
          p.defaults.filter((a) => a !== attr),
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
    { attributes: 'name' },
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
      const p = await user(t);
      await t.property(fc.record({ how: via(p), q: fc.constantFrom(...forms) }), async ({ how, q }) => {
        const { r, res } = await read(t, p.user, how, q);
        if (r.id !== p.user.id) fail(`with ${queryText(q)}: id ${p.user.id}`, `id ${JSON.stringify(r.id)}`, res);
      });
    },
    WRITES,
  );
}

{
  const user = userOf();
  const sub = (v: unknown, k: string): unknown => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json)[k] : undefined);
  /** A form asks for a sub-attribute and names a top-level default attribute (`probe`) beside it, so
   * that a parameter ignored as a whole (its own check's rule) shows, and blocks the check. */
  interface Form {
    needs: readonly string[];
    q: (probe: Attr) => Record<string, string>;
    /** With attributes, the probe must be there and the other defaults absent; with excludedAttributes, the probe absent. */
    kind: 'attributes' | 'excluded';
    judge: (r: Json) => string | undefined;
  }
  const givenOnly = (r: Json): string | undefined =>
    assigned(sub(r.name, 'givenName')) && !assigned(sub(r.name, 'familyName')) ? undefined : 'name.givenName without name.familyName';
  const forms: Form[] = [
    { needs: ['name.givenName', 'name.familyName'], q: (probe) => ({ attributes: `${probe},name.givenName` }), kind: 'attributes', judge: givenOnly },
    { needs: ['name.givenName', 'name.familyName'], q: (probe) => ({ excludedAttributes: `${probe},name.familyName` }), kind: 'excluded', judge: givenOnly },
    {
      needs: ['emails'],
      q: (probe) => ({ attributes: `${probe},emails.value` }),
      kind: 'attributes',
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
      const p = await user(t);
      const { schema } = await scimTargetOf(t);
      const usable = forms.filter((f) => f.needs.every((n) => hasAttribute(schema, n)));
      // The probe: a default attribute other than userName, name and emails (the forms' own).
      const probe = p.defaults.find((a) => a !== 'userName' && a !== 'name' && a !== 'emails') ?? 'userName';
      t.requireData(usable.length > 0, "the target's User has neither name.givenName and familyName nor emails");
      await t.property(fc.record({ how: via(p), form: fc.constantFrom(...usable) }), async ({ how, form }) => {
        const q = form.q(probe);
        const { r, res } = await read(t, p.user, how, q);
        if (form.kind === 'attributes' && p.defaults.some((a) => a !== probe && a !== 'name' && a !== 'emails' && a !== 'userName' && assigned(r[a])))
          blockedBy(ATTRIBUTES_CHECK, `with ${queryText(q)} the answer holds default attributes not asked for`, res);
        if (form.kind === 'excluded' && probe !== 'userName' && assigned(r[probe]))
          blockedBy(EXCLUDED_CHECK, `with ${queryText(q)} the answer still holds ${probe}`, res);
        const wanted = form.judge(r);
        if (wanted !== undefined) fail(`with ${queryText(q)}: ${wanted}`, `name ${JSON.stringify(r.name)}, emails ${JSON.stringify(r.emails)}`, res);
      });
    },
    WRITES,
  );
}

/** A name in other case: every letter's case swapped (`displayName` → `DISPLAYnAME`). */
const swapCase = (s: string): string => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

{
  const user = userOf();
  requirement(
    {
      id: 'scim.projection.names-case-insensitive',
      level: 'MUST',
      spec: 'rfc7643#section-2.1',
      title: 'Attribute names in attributes and excludedAttributes are case-insensitive',
    },
    async (t) => {
      const p = await user(t);
      // Each default in other case: alone in attributes, or (but userName) removed by excludedAttributes.
      type Form = { attr: Attr; kind: 'attributes' | 'excludedAttributes'; present: Attr[] };
      const forms = p.defaults.flatMap((a): Form[] => [
        { attr: a, kind: 'attributes', present: [a] },
        ...(a === 'userName' ? [] : [{ attr: a, kind: 'excludedAttributes' as const, present: p.defaults.filter((d) => d !== a) }]),
      ]);
      await t.property(fc.record({ how: via(p), form: fc.constantFrom(...forms) }), async ({ how, form }) => {
        // The name in its own case first: a parameter not honoured as such is its own check's deviation.
        const exact = { [form.kind]: form.attr };
        const control = await read(t, p.user, how, exact);
        const honoured = form.present.every((a) => assigned(control.r[a])) && p.defaults.every((a) => form.present.includes(a) || !assigned(control.r[a]));
        if (!honoured)
          blockedBy(form.kind === 'attributes' ? ATTRIBUTES_CHECK : EXCLUDED_CHECK, `${queryText(exact)} did not answer as the RFC says`, control.res);
        const q = {
          [form.kind]:
            form.kind === 'attributes' ? swapCase(form.attr) : form.attr.toLowerCase() === form.attr ? form.attr.toUpperCase() : form.attr.toLowerCase(),
        };
        const { r, res } = await read(t, p.user, how, q);
        expectDefaults(r, p.defaults, form.present, q, res);
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
    const { schema } = await scimTargetOf(t);
    const defaults = DEFAULTS.filter((a) => hasAttribute(schema, a));
    const q = { attributes: 'userName' };
    const body = userBody(uniqueName(t, 'pj'), fullUser(t));
    const res = await postUser(t, body, q);
    // The create status is scim.users.create-201's rule; any success with the user is judged here.
    if (res.status < 200 || res.status > 299 || typeof res.json !== 'object' || res.json === null)
      fail('201 with the created user', describeResponse(res), res);
    expectDefaults(res.json as Json, defaults, ['userName'], q, res);
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
      const p = await user(t);
      const q = { attributes: 'userName' };
      const res = await putUser(t, p.user.id, userBody(p.user.userName, fullUser(t)), q);
      if (res.status !== 200 || typeof res.json !== 'object' || res.json === null) fail('200 with the replaced user', describeResponse(res), res);
      expectDefaults(res.json as Json, p.defaults, ['userName'], q, res);
    },
    WRITES,
  );
}
