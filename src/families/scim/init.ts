/**
 * SCIM's part of `lp-conformance init`: whether the target has a SCIM API at its base URL, and the
 * choices RFC 7644 and the specification leave open (expectations.scim), probed with reads: the
 * unsupported endpoints (specification rule 4) by GET, `/Me` with the methods the checks send,
 * `/ServiceProviderConfig`'s own word where it is served (RFC 7643 §5), `itemsPerPage` on a short last
 * page, sorting, the filter's operators and the attributes they take. SCIM has no records in the
 * profile: its checks create and delete their own. PATCH's answers need a write (`--probe-writes`:
 * a user named with init's marker, deleted at once), and so does the default page of a server that
 * holds less than one (users of init's own, deleted at once).
 */
import type { InitContext, InitPart, ToolAnswer, ToolRequest } from '../family.js';
import { oauthClientPart, probeOAuthFlow } from '../init-oauth.js';
import { isItem, ok, PartBuilder, said } from '../init-part.js';
import { DEFAULT_SCIM_EXPECTATIONS, SCIM_FILTER_LOGICAL, SCIM_FILTER_OPERATORS, SCIM_UNSUPPORTED_ENDPOINTS, type ScimFilterSupport } from './profile.js';

type Endpoint = (typeof SCIM_UNSUPPORTED_ENDPOINTS)[number];

const list = (query: Record<string, string | number>, token?: false): ToolRequest => ({ op: 'scim.users.list', query, ...(token === false ? { token } : {}) });
const at = (method: string, path: string, json?: unknown): ToolRequest => ({
  op: 'scim.users.list',
  route: { method, path },
  ...(json !== undefined ? { json } : {}),
});
const total = (a: ToolAnswer): number | undefined => (isItem(a.json) && typeof a.json.totalResults === 'number' ? a.json.totalResults : undefined);
const resources = (a: ToolAnswer): Record<string, unknown>[] => (isItem(a.json) && Array.isArray(a.json.Resources) ? a.json.Resources.filter(isItem) : []);

/** Where SCIM is not: no answer, or a 404 for its users (with or without a token). */
const nowhere = (a: ToolAnswer): boolean => a.status === 0 || a.status === 404;

/** An endpoint the target does not serve: any answer but a success, except a 400, which judged the
 * probe's own request (a served /Bulk refusing a BulkRequest without operations, as SCIMMY does: RFC
 * 7644 §3.7 has a request carry them) and so comes from the endpoint. */
const notServed = (a: ToolAnswer): boolean => !ok(a) && a.status !== 400;

/**
 * /Me with the methods the checks send to it (GET; POST, PUT, PATCH and DELETE when it is unsupported):
 * a server may serve GET and answer 501 to the rest. GET always; with --probe-writes, POST, PUT and
 * PATCH with bodies a served /Me refuses or leaves as it is (no user, an empty PatchOp). DELETE is
 * never sent: a served DELETE /Me would delete the account init runs as. /Me counts as served when
 * any method was served; the answer stands for the endpoint.
 */
async function probeMe(ctx: InitContext): Promise<{ answer: ToolAnswer; how: string }> {
  const get = await ctx.send(at('GET', '/Me'));
  if (!ctx.probeWrites) return { answer: get, how: `${said(get)} (POST, PUT, PATCH and DELETE /Me not probed without --probe-writes)` };
  const others = [
    await ctx.send(at('POST', '/Me', {})),
    await ctx.send(at('PUT', '/Me', {})),
    await ctx.send(at('PATCH', '/Me', { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [] })),
  ];
  const all = [get, ...others];
  const served = all.find((a) => !notServed(a));
  return { answer: served ?? get, how: `${all.map((a) => said(a)).join(', ')} (DELETE /Me never probed: it would delete init's own account)` };
}

async function probeEndpoints(ctx: InitContext, part: PartBuilder): Promise<void> {
  const { unsupportedStatus } = DEFAULT_SCIM_EXPECTATIONS;
  const gets: [Endpoint, string][] = [
    ['/ServiceProviderConfig', '/ServiceProviderConfig'],
    ['/ResourceTypes', '/ResourceTypes'],
  ];
  const answers = new Map<Endpoint, ToolAnswer>();
  for (const [endpoint, path] of gets) answers.set(endpoint, await ctx.send(at('GET', path)));
  const me = await probeMe(ctx);
  const spc = answers.get('/ServiceProviderConfig');
  const config = spc && ok(spc) && isItem(spc.json) ? spc.json : undefined;
  const supported = (feature: string): boolean | undefined => {
    const f = config?.[feature];
    return isItem(f) && typeof f.supported === 'boolean' ? f.supported : undefined;
  };
  answers.set('/Me', me.answer);
  const hows: string[] = [...[...answers].filter(([e]) => e !== '/Me').map(([, a]) => said(a)), me.how];
  // The POST endpoints: the configuration's word for /Bulk, a write otherwise (--probe-writes).
  if (ctx.probeWrites) {
    const bulk = at('POST', '/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] });
    const search = at('POST', '/.search', {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      filter: `userName sw "${ctx.marker}none-"`,
      count: 1,
    });
    for (const [endpoint, req] of [
      ['/Bulk', bulk],
      ['/.search', search],
    ] as const) {
      const a = await ctx.send(req);
      answers.set(endpoint, a);
      hows.push(said(a));
    }
  } else {
    const bulk = supported('bulk');
    if (bulk !== undefined) {
      answers.set('/Bulk', { status: bulk ? 200 : 0, headers: {}, text: '', json: undefined, request: 'POST /Bulk' });
      hows.push(`GET /ServiceProviderConfig says bulk.supported ${bulk}`);
    }
  }
  const unprobed = SCIM_UNSUPPORTED_ENDPOINTS.filter((e) => !answers.has(e));
  const absent = [...answers].filter(([, a]) => notServed(a)).map(([e]) => e);
  const named = SCIM_UNSUPPORTED_ENDPOINTS.filter((e) => absent.includes(e) || unprobed.includes(e));
  const why = unprobed.length > 0 ? `; ${unprobed.join(' and ')}: as specification rule 4 says (a POST, not probed without --probe-writes)` : '';
  part.set(['expectations', 'scim', 'unsupported'], named, `${hows.join(', ')}${why}`);
  // Which identity providers' request forms a server accepts is its makers' choice, and no read shows
  // it: a written profile judges none of them until its user names them (docs/scim.md).
  part.set(['expectations', 'scim', 'client'], [], 'not probed: name the identity providers whose requests it accepts (entra, okta)');
  const statuses = [...answers.values()].filter((a) => a.status >= 400 && notServed(a)).map((a) => a.status);
  const common = [...new Set(statuses)].sort((a, b) => statuses.filter((s) => s === b).length - statuses.filter((s) => s === a).length)[0];
  if (common !== undefined)
    part.set(
      ['expectations', 'scim', 'unsupportedStatus'],
      common,
      `the status of the endpoints above it does not serve${new Set(statuses).size > 1 ? ' (the most common)' : ''}`,
    );
  else part.keep(['expectations', 'scim', 'unsupportedStatus'], `not found: it serves every endpoint probed (the default is RFC 7644's ${unsupportedStatus})`);
  const sort = supported('sort');
  if (sort !== undefined) part.set(['expectations', 'scim', 'sort'], sort, `GET /ServiceProviderConfig says sort.supported ${sort}`);
}

/** The page sizes a server holding less than one page is filled up to, in turn, under --probe-writes. */
const PAGE_FILLS = [21, 51, 101, 201] as const;

/** How the target's filter takes a comparison with null (RFC 7644 §3.4.2.2 leaves it open): 200 is
 * read as null meaning unassigned, 400 as null refused. */
async function probeFilterNull(ctx: InitContext, part: PartBuilder): Promise<void> {
  const path = ['expectations', 'scim', 'filterNull'];
  const filter = 'title eq null';
  const res = await ctx.send(list({ filter, startIndex: 1, count: 1 }));
  if (res.status === 200) part.set(path, 'absent', `filter=${filter}: ${said(res)}`);
  else if (res.status === 400) part.set(path, 'refused', `filter=${filter}: ${said(res)}`);
  else part.keep(path, `not found: filter=${filter}: ${said(res)}`);
}

/**
 * The page size of a list without count (RFC 7644 §3.4.2.4 leaves it to the provider): a list
 * without count that holds fewer than totalResults shows it. On a server holding less than one page,
 * --probe-writes creates users named with init's marker, a few sizes in turn up to 201 users, until
 * the page shows its size, and deletes them all.
 */
async function probeDefaultPage(ctx: InitContext, part: PartBuilder): Promise<void> {
  const path = ['expectations', 'scim', 'defaultCount'];
  const read = async (): Promise<{ a: ToolAnswer; shown: number; all: number | undefined }> => {
    const a = await ctx.send(list({ startIndex: 1 }));
    return { a, shown: resources(a).length, all: total(a) };
  };
  const paged = (r: { a: ToolAnswer; shown: number; all: number | undefined }): boolean => ok(r.a) && (r.all ?? 0) > r.shown && r.shown > 0;
  let now = await read();
  if (paged(now)) return part.set(path, now.shown, `a list without count held ${now.shown} of totalResults ${now.all}`);
  if (!ok(now.a)) return part.keep(path, `not found: a list without count ${said(now.a)}`);
  if (!ctx.probeWrites)
    return part.keep(
      path,
      `not found: a list without count held all ${now.shown} of its users (a page shows its size only when there are more; init --probe-writes fills one)`,
    );
  const made: string[] = [];
  const held = now.all ?? now.shown;
  let refusal: string | undefined;
  for (const size of PAGE_FILLS) {
    while (held + made.length < size && refusal === undefined) {
      const userName = `${ctx.marker}page-${made.length}@example.test`;
      const res = await ctx.send({
        op: 'scim.users.create',
        json: {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName,
          name: { givenName: 'Init', familyName: 'Page' },
          emails: [{ type: 'work', value: userName }],
        },
      });
      const id = isItem(res.json) && typeof res.json.id === 'string' ? res.json.id : undefined;
      if (ok(res) && id !== undefined) made.push(id);
      else refusal = `creating a user to fill a page: ${said(res)}`;
    }
    now = await read();
    if (paged(now) || refusal !== undefined) break;
  }
  let deleted = 0;
  for (const id of made) if (ok(await ctx.send({ op: 'scim.users.delete', params: { id } }))) deleted++;
  if (made.length > 0)
    ctx.created(
      `${made.length} SCIM users named ${ctx.marker}page-…, to fill a page: ${deleted} deleted${deleted < made.length ? ' (lp-conformance cleanup deletes the rest)' : ''}`,
    );
  if (paged(now)) part.set(path, now.shown, `with ${made.length} users of init's own added, a list without count held ${now.shown} of totalResults ${now.all}`);
  else part.keep(path, `not found: ${refusal ?? `a list without count held all ${now.shown} of ${now.all ?? '?'} users, ${made.length} of them init's own`}`);
}

async function probeLists(ctx: InitContext, part: PartBuilder, users: number): Promise<void> {
  if (users < 1) {
    part.keep(['expectations', 'scim', 'itemsPerPage'], 'not probed: the server holds no user, and a page of them shows it');
  } else {
    const page = await ctx.send(list({ startIndex: users, count: 2 }));
    const n = resources(page).length;
    const said2 = isItem(page.json) ? page.json.itemsPerPage : undefined;
    if (ok(page) && n < 2 && said2 === n)
      part.set(['expectations', 'scim', 'itemsPerPage'], 'returned', `the last page (startIndex=${users}&count=2) held ${n} and said itemsPerPage ${n}`);
    else if (ok(page) && n < 2 && said2 === 2)
      part.set(
        ['expectations', 'scim', 'itemsPerPage'],
        'either',
        `the last page (startIndex=${users}&count=2) held ${n} and said itemsPerPage 2, the count asked`,
      );
    else part.keep(['expectations', 'scim', 'itemsPerPage'], `not found: ${said(page)} with ${n} resources and itemsPerPage ${JSON.stringify(said2)}`);
  }
  if (!part.found.some((f) => f.path.join('.') === 'expectations.scim.sort')) {
    if (users < 2) part.keep(['expectations', 'scim', 'sort'], 'not probed: the server holds fewer than 2 users to sort');
    else {
      const [up, down] = await Promise.all(
        (['ascending', 'descending'] as const).map((sortOrder) => ctx.send(list({ sortBy: 'userName', sortOrder, startIndex: 1, count: 5 }))),
      );
      const first = (a: ToolAnswer | undefined) => (a ? resources(a)[0]?.userName : undefined);
      if (up && down && ok(up) && ok(down)) {
        const sorts = first(up) !== first(down);
        part.set(['expectations', 'scim', 'sort'], sorts, `sortBy=userName ascending and descending answered ${sorts ? 'different' : 'the same'} first users`);
      } else if (up && up.status >= 400 && up.status < 500) part.set(['expectations', 'scim', 'sort'], false, `sortBy=userName: ${said(up)}`);
      else part.keep(['expectations', 'scim', 'sort'], `not found: sortBy=userName: ${up ? said(up) : ''}`);
    }
  }
  await probeDefaultPage(ctx, part);
  await probeFilter(ctx, part);
  await probeFilterNull(ctx, part);
  const sub = await ctx.send(list({ sortBy: 'emails.type', startIndex: 1, count: 1 }));
  if (sub.status === 400 || sub.status === 200) part.set(['expectations', 'scim', 'sortSubAttributeStatus'], sub.status, `sortBy=emails.type: ${said(sub)}`);
  else
    part.keep(
      ['expectations', 'scim', 'sortSubAttributeStatus'],
      `not found: sortBy=emails.type: ${said(sub)} (the profile takes 400, 200, or 0: not checked)`,
    );
}

/** The attributes the filter probe tries (top-level name, the path filtered, 'true' for a boolean),
 * those the checks filter on. */
const FILTER_ATTRIBUTES: readonly (readonly [string, string, 'string' | 'true'])[] = [
  ['userName', 'userName', 'string'],
  ['externalId', 'externalId', 'string'],
  ['displayName', 'displayName', 'string'],
  ['active', 'active', 'true'],
  ['title', 'title', 'string'],
  ['emails', 'emails.value', 'string'],
  ['name', 'name.familyName', 'string'],
];

/** Sends filters and remembers their answers: whether one was accepted (undefined: neither answered
 * nor refused with 400), and whether its 400 was a refusal. */
interface FilterProbe {
  accepted(filter: string): Promise<boolean | undefined>;
  refusal(filter: string): boolean;
  answer(filter: string): ToolAnswer | undefined;
}

function filterProbe(ctx: InitContext): FilterProbe {
  const answers = new Map<string, ToolAnswer>();
  return {
    async accepted(filter) {
      const a = await ctx.send(list({ filter, startIndex: 1, count: 1 }));
      answers.set(filter, a);
      if (ok(a)) return true;
      return a.status === 400 ? false : undefined;
    },
    // Table 9: a filter whose attribute and comparison the server does not support is refused with
    // 400 invalidFilter (or a bare 400). A 400 naming another scimType (invalidValue, say) is the
    // server failing on a filter it took, not a refusal: the attribute stays, so its checks run and
    // report that answer instead of being skipped.
    refusal(filter) {
      const a = answers.get(filter);
      const scimType = isItem(a?.json) ? a.json.scimType : undefined;
      return a?.status === 400 && (scimType === undefined || scimType === 'invalidFilter');
    },
    answer: (filter) => answers.get(filter),
  };
}

/** The attributes of FILTER_ATTRIBUTES that take every operator the server accepts on userName. */
async function probeAttributes(
  probe: FilterProbe,
  operators: readonly ScimFilterSupport['operators'][number][],
  literal: string,
): Promise<{ attributes: string[]; narrowed: string[]; failing: string[] }> {
  // The attributes each accepted operator takes (pr without a value, a boolean compared as one): an
  // attribute is kept unless the server refuses (400 invalidFilter) an operator it accepts on userName.
  const attributes: string[] = [];
  const narrowed: string[] = [];
  const failing: string[] = [];
  for (const [name, path, value] of FILTER_ATTRIBUTES) {
    let takes = true;
    for (const op of operators) {
      if (value === 'true' && !['eq', 'ne', 'pr'].includes(op)) continue;
      const filter = op === 'pr' ? `${path} pr` : `${path} ${op} ${value === 'true' ? value : literal}`;
      if ((await probe.accepted(filter)) === true) continue;
      if (probe.refusal(filter)) {
        takes = false;
        narrowed.push(`${path} ${op}`);
        break;
      }
      const a = probe.answer(filter);
      const scimType = isItem(a?.json) && typeof a.json.scimType === 'string' ? ` ${a.json.scimType}` : '';
      failing.push(`${path} ${op} answered ${a?.status ?? 0}${scimType}`);
      break;
    }
    if (takes) attributes.push(name);
  }
  return { attributes, narrowed, failing };
}

/** RFC 7644 §3.4.2.2 (Table 9): a server may refuse a filter it does not support with 400
 * invalidFilter. Each comparison operator, each logical operator and a value path, tried once on
 * userName (a literal no user has: the answers' content does not matter, only whether refused). */
async function probeFilter(ctx: InitContext, part: PartBuilder): Promise<void> {
  const literal = '"lpc-init-probe-none"';
  const probe = filterProbe(ctx);
  const { accepted } = probe;
  const operators: ScimFilterSupport['operators'][number][] = [];
  const refused: string[] = [];
  for (const op of SCIM_FILTER_OPERATORS) {
    const yes = await accepted(op === 'pr' ? 'userName pr' : `userName ${op} ${literal}`);
    if (yes === undefined) return part.keep(['expectations', 'scim', 'filter'], `not found: filter=userName ${op} … was neither answered nor refused with 400`);
    if (yes) operators.push(op);
    else refused.push(op);
  }
  const logical: ScimFilterSupport['logical'][number][] = [];
  for (const op of SCIM_FILTER_LOGICAL) {
    const yes = await accepted(op === 'not' ? `not (userName eq ${literal})` : `userName eq ${literal} ${op} userName eq ${literal}`);
    if (yes) logical.push(op);
    else refused.push(op);
  }
  const valuePaths = (await accepted(`emails[type eq "work" and value eq ${literal}]`)) === true;
  if (!valuePaths) refused.push('value paths');
  const { attributes, narrowed, failing } = await probeAttributes(probe, operators, literal);
  const allAttributes = narrowed.length === 0;
  const notRefused = failing.length > 0 ? `; kept, the answer not a refusal (400 invalidFilter): ${failing.join('; ')}` : '';
  const support: ScimFilterSupport = { operators, logical, attributes: allAttributes ? 'all' : attributes, valuePaths };
  const onAttributes = allAttributes
    ? `every accepted operator was accepted on ${FILTER_ATTRIBUTES.map(([, p]) => p).join(', ')} (attributes: all)`
    : `refused with 400: ${narrowed.join(', ')} (attributes: ${attributes.join(', ') || 'none of those probed'})`;
  const onAttributesSaid = `${onAttributes}${notRefused}`;
  if (refused.length === 0 && allAttributes)
    part.keep(['expectations', 'scim', 'filter'], `every operator, logical operator and a value path were answered: the default (all); ${onAttributesSaid}`);
  else
    part.set(
      ['expectations', 'scim', 'filter'],
      support,
      `${refused.length > 0 ? `filters on userName: refused with 400 ${refused.join(', ')}; ` : ''}${onAttributesSaid}`,
    );
}

/** With --probe-writes: a user of init's own, PATCHed twice, then deleted. */
async function probePatch(ctx: InitContext, part: PartBuilder): Promise<void> {
  const userName = `${ctx.marker}init@example.test`;
  const made = await ctx.send({
    op: 'scim.users.create',
    json: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName,
      name: { givenName: 'Init', familyName: 'Probe' },
      emails: [{ type: 'work', value: userName }],
    },
  });
  const id = isItem(made.json) && typeof made.json.id === 'string' ? made.json.id : undefined;
  if (!ok(made) || !id) {
    part.keep(['expectations', 'scim', 'patchSuccess'], `not found: creating a user to PATCH: ${said(made)}`);
    part.keep(['expectations', 'scim', 'addUnmatchedValueFilter'], `not found: creating a user to PATCH: ${said(made)}`);
    return;
  }
  const patch = (op: Record<string, unknown>) =>
    ctx.send({ op: 'scim.users.patch', params: { id }, json: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [op] } });
  const replaced = await patch({ op: 'replace', path: 'displayName', value: 'Init Probe' });
  if (replaced.status === 200 || replaced.status === 204)
    part.set(['expectations', 'scim', 'patchSuccess'], replaced.status, `a PATCH replace: ${said(replaced)}`);
  else part.keep(['expectations', 'scim', 'patchSuccess'], `not found: a PATCH replace ${said(replaced)}`);
  const added = await patch({ op: 'add', path: 'emails[type eq "lpc"].value', value: userName });
  const scimType = isItem(added.json) ? added.json.scimType : undefined;
  if (added.status === 400 && scimType === 'noTarget')
    part.set(['expectations', 'scim', 'addUnmatchedValueFilter'], 'noTarget', `a PATCH add whose value filter matches nothing: ${said(added)} noTarget`);
  else if (ok(added))
    part.set(['expectations', 'scim', 'addUnmatchedValueFilter'], 'creates', `a PATCH add whose value filter matches nothing: ${said(added)}`);
  else part.keep(['expectations', 'scim', 'addUnmatchedValueFilter'], `not found: a PATCH add whose value filter matches nothing ${said(added)}`);
  const gone = await ctx.send({ op: 'scim.users.delete', params: { id } });
  ctx.created(`SCIM user ${id} (${userName}), ${ok(gone) ? 'deleted' : `not deleted: ${said(gone)} (lp-conformance cleanup deletes it)`}`);
}

export async function scimInit(ctx: InitContext): Promise<InitPart> {
  const part = new PartBuilder({ scim: DEFAULT_SCIM_EXPECTATIONS });
  const base = ctx.profile.families.scim.baseUrl;
  const own = ctx.profile.familyCredentials.scim;
  // The session's variables, and the OAuth flow's client (init-oauth.ts).
  const client = own.oauth === undefined ? undefined : oauthClientPart(ctx, own.oauth);
  const credentials = (how: string) =>
    part.set(
      ['credentials', 'scim'],
      {
        ...(own.token ? { token: { env: own.token.env } } : { username: { env: own.username.env }, password: { env: own.password.env } }),
        ...(client ? { oauth: client.value } : {}),
      },
      client ? `${how}; oauth: ${client.note}` : how,
    );
  const problem = await ctx.sessionProblem();
  if (problem !== undefined) {
    // Without a session, a read without a token still tells whether SCIM is there.
    const bare = await ctx.send(list({ startIndex: 1, count: 1 }, false));
    if (nowhere(bare)) return part.part({ absent: `${said(bare)}: no SCIM API at ${base} (give families.scim.baseUrl if it is elsewhere)` });
    credentials(`not usable: ${problem}`);
    for (const key of Object.keys(DEFAULT_SCIM_EXPECTATIONS)) part.keep(['expectations', 'scim', key], `not probed: no SCIM session (${problem})`);
    return part.part({ where: `${said(bare)} without a token: a SCIM API is there` });
  }
  credentials('the SCIM session init used');
  const first = await ctx.send(list({ startIndex: 1, count: 1 }));
  if (nowhere(first)) return part.part({ absent: `${said(first)}: no SCIM API at ${base} (give families.scim.baseUrl if it is elsewhere)` });
  const users = total(first);
  if (!ok(first) || users === undefined) {
    for (const key of Object.keys(DEFAULT_SCIM_EXPECTATIONS)) part.keep(['expectations', 'scim', key], `not probed: ${said(first)}, no ListResponse`);
    return part.part({ where: `${said(first)}` });
  }
  await probeEndpoints(ctx, part);
  await probeLists(ctx, part, users);
  await probeOAuthFlow(ctx, part, {
    path: ['expectations', 'scim', 'oauth'],
    base,
    flow: ctx.profile.expectations.scim.oauth,
    issuer: `${base.replace(/\/+$/, '')}/oauth`,
  });
  if (ctx.probeWrites) await probePatch(ctx, part);
  else {
    const why = 'not probed: only a write shows it (lp-conformance init --probe-writes probes it)';
    part.keep(['expectations', 'scim', 'patchSuccess'], why);
    part.keep(['expectations', 'scim', 'addUnmatchedValueFilter'], why);
  }
  return part.part({ where: `${said(first)} with a ListResponse of ${users} users` });
}
