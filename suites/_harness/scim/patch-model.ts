/**
 * The model of the SCIM PATCH checks (suites/scim/patch.check.ts): one user and one group the check
 * created, the attributes the model tracks, and fast-check commands that PATCH (or PUT, or GET)
 * them and compare the target's answers with what RFC 7644 §3.5.2 says the resource now holds.
 * Attributes a PUT left out are "unknown" (a PUT MAY clear them or not, RFC 7644 §3.5.1) and not
 * compared until a PATCH sets or removes them.
 */
import fc from 'fast-check';
import { describeResponse, fail } from '../failure.js';
import type { ApiResponse } from '../http.js';
import { contractViolation } from '../violations.js';
import { blockedBy, notSetUp } from '../outcomes.js';
import type { Json } from '../records.js';
import type { CheckContext } from '../requirement.js';
import { literal, putUser as putScimUser, SCIM_SCHEMAS } from './records.js';

export type PatchOp = { op: string; path?: string; value?: unknown };

/** The PATCH request body (RFC 7644 §3.5.2). */
export const patchBody = (operations: readonly PatchOp[]): Json => ({ schemas: [SCIM_SCHEMAS.patchOp], Operations: operations });

export async function patchUser(t: CheckContext, id: string, operations: readonly PatchOp[], query?: Record<string, string>): Promise<ApiResponse> {
  return t.http.send({ op: 'scim.users.patch', params: { id }, json: patchBody(operations), ...(query ? { query } : {}) });
}

export async function patchGroup(t: CheckContext, id: string, operations: readonly PatchOp[]): Promise<ApiResponse> {
  return t.http.send({ op: 'scim.groups.patch', params: { id }, json: patchBody(operations) });
}

const objectBody = (res: ApiResponse): Json | undefined =>
  typeof res.json === 'object' && res.json !== null && !Array.isArray(res.json) ? (res.json as Json) : undefined;

/** The check that owns the form of a successful PATCH's answer (status, and the resource in a 200). */
export const PATCH_ANSWER_CHECK = 'scim.patch.success-answer';
const CONTRACT_CHECK = 'scim.invariant.success-body-matches-contract';

/** The statuses of a successful PATCH the profile allows (RFC 7644 §3.5.2: 200 with the resource, or 204). */
export function patchSuccessStatuses(t: CheckContext): number[] {
  const allowed = t.profile.expectations.scim.patchSuccess;
  return allowed === 'either' ? [200, 204] : [allowed];
}

/**
 * A successful PATCH (RFC 7644 §3.5.2): 200 with the entire resource, or 204 without a body, as the
 * profile declares. The resource after the PATCH: the 200 answer's, or (after a 204) a GET's.
 * A refusal (4xx, 5xx) fails the check: the operation was one that applies. A success of another
 * form than the profile's, or a 200 without the resource, is scim.patch.success-answer's rule: any
 * other check ends "blocked by" it (`own` is that check). A 200 body outside the resource's
 * contract is the contract invariant's: the check is blocked by it.
 */
export async function patchedResource(
  t: CheckContext,
  res: ApiResponse,
  kind: 'user' | 'group',
  id: string,
  what: string,
  own = false,
): Promise<{ resource: Json; res: ApiResponse }> {
  const statuses = patchSuccessStatuses(t);
  const answer = (expected: string): never =>
    own ? fail(expected, describeResponse(res), res) : blockedBy(PATCH_ANSWER_CHECK, `${what} answered ${describeResponse(res)} (${expected})`, res);
  if (res.status < 200 || res.status > 299) fail(`${statuses.join(' or ')} for ${what}`, describeResponse(res), res);
  if (!statuses.includes(res.status)) answer(`${statuses.join(' or ')} for ${what}`);
  if (res.status === 200) {
    const body = objectBody(res);
    if (!body || typeof body.id !== 'string') answer(`200 with the entire resource for ${what} (RFC 7644 §3.5.2)`);
    const broken = contractViolation(CONTRACT_CHECK, kind === 'user' ? 'scim/user' : 'scim/group', res);
    if (broken && !own) blockedBy(CONTRACT_CHECK, `the answer to ${what}: ${broken.received}`, res);
    return { resource: body as Json, res };
  }
  const get = await t.http.send({ op: kind === 'user' ? 'scim.users.get' : 'scim.groups.get', params: { id } });
  const body = objectBody(get);
  if (get.status !== 200 || !body) fail(`GET of the ${kind} after a 204 PATCH to answer 200 with it`, describeResponse(get), get);
  return { resource: body, res: get };
}

// ---- The user model -------------------------------------------------------------------------

export const UNKNOWN = Symbol('unknown');
type Known<T> = T | undefined | typeof UNKNOWN;

export const SIMPLE = ['displayName', 'title', 'nickName', 'active', 'name.givenName', 'name.familyName'] as const;
export type Simple = (typeof SIMPLE)[number];
export const REMOVABLE = ['displayName', 'title', 'nickName'] as const;
export const EMAIL_TYPES = ['work', 'home', 'other'] as const;
export type EmailType = (typeof EMAIL_TYPES)[number];

export interface Email {
  value: string;
  type: EmailType;
}

export interface UserModel {
  simple: Record<Simple, Known<string | boolean>>;
  emails: Known<Email[]>;
}

export interface Model {
  user: UserModel;
  /** Member ids of the group. */
  members: Set<string>;
  /** Draws distinct email addresses within a run. */
  seq: number;
  /** The tracked simple attributes the target's User has: commands on others are not drawn. */
  listed: readonly Simple[];
  /** A command that would leave the user without an email is not drawn (the target requires one). */
  emailsRequired: boolean;
}

export interface Fixtures {
  userId: string;
  userName: string;
  /** In every email the model writes: addresses no other user, check or run has. */
  mailTag: string;
  /** The tracked simple attributes the target's User has (GET /Schemas). */
  simple: readonly Simple[];
  /** Whether the target requires an email (a command leaving none is not drawn). */
  emailsRequired: boolean;
  groupId: string;
  groupName: string;
  /** Users that may join the group (the modelled one first). */
  memberPool: string[];
}

export interface Real {
  t: CheckContext;
  f: Fixtures;
}

export type Command = fc.AsyncCommand<Model, Real>;

const read = (resource: Json, path: Simple): unknown => {
  const [head, sub] = path.split('.') as [string, string | undefined];
  const top = resource[head];
  if (sub === undefined) return top;
  return typeof top === 'object' && top !== null ? (top as Json)[sub] : undefined;
};

const absent = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0);

const emailKey = (e: { value?: unknown; type?: unknown }): string => `${String(e.value).toLowerCase()}|${String(e.type ?? '')}`;

const emailsOf = (resource: Json): Email[] =>
  Array.isArray(resource.emails) ? (resource.emails as Json[]).map((e) => ({ value: String(e?.value), type: e?.type as EmailType })) : [];

const show = (v: unknown): string => JSON.stringify(v) ?? 'absent';

/** The tracked attributes of `resource` agree with the model (absent, null and [] alike, RFC 7643 §2.5; emails in any order). */
export function compareUser(what: string, resource: Json, m: UserModel, res: ApiResponse): void {
  for (const path of SIMPLE) {
    const want = m.simple[path];
    if (want === UNKNOWN) continue;
    const got = read(resource, path);
    const agrees = want === undefined ? absent(got) : got === want;
    if (!agrees) fail(`${what}: ${path} ${want === undefined ? 'unassigned' : show(want)}`, `${path} ${show(got)}`, res);
  }
  if (m.emails !== UNKNOWN) {
    const want = (m.emails ?? []).map(emailKey).sort();
    const got = emailsOf(resource).map(emailKey).sort();
    if (show(want) !== show(got)) fail(`${what}: emails (value|type, any order) ${show(want)}`, `emails ${show(got)}`, res);
  }
}

export function compareMembers(what: string, resource: Json, members: ReadonlySet<string>, res: ApiResponse): void {
  const got = Array.isArray(resource.members) ? (resource.members as Json[]).map((m) => String(m?.value)).sort() : [];
  const want = [...members].sort();
  if (show(got) !== show(want)) fail(`${what}: members ${show(want)}`, `members ${show(got)}`, res);
}

/** A distinct address within a run; the fixture's tag makes it unique on the target. */
const address = (m: Model, f: Fixtures, local: string): string => `${local}.${m.seq++}.${f.mailTag}@example.com`;

const setSimple = (u: UserModel, path: Simple, value: string | boolean | undefined): void => {
  u.simple[path] = value;
};

async function patchAndCompare(m: Model, { t, f }: Real, ops: readonly PatchOp[], what: string): Promise<void> {
  const res = await patchUser(t, f.userId, ops);
  const { resource, res: shown } = await patchedResource(t, res, 'user', f.userId, what);
  compareUser(`the user after ${what}`, resource, m.user, shown);
}

/** PATCH `replace` of a simple attribute or sub-attribute by path. */
export class ReplaceSimple implements Command {
  constructor(
    readonly path: Simple,
    readonly value: string | boolean,
  ) {}
  check = (m: Model) => m.listed.includes(this.path);
  async run(m: Model, r: Real): Promise<void> {
    setSimple(m.user, this.path, this.value);
    await patchAndCompare(m, r, [{ op: 'replace', path: this.path, value: this.value }], `replace ${this.path}`);
  }
  toString = () => `Replace(${this.path}, ${show(this.value)})`;
}

/** PATCH `replace` of the complex `name` with some sub-attributes: the others are left unchanged (RFC 7644 §3.5.2.3). */
export class ReplaceName implements Command {
  constructor(readonly value: Partial<Record<'givenName' | 'familyName', string>>) {}
  check = (m: Model) => Object.keys(this.value).every((k) => m.listed.includes(`name.${k}` as Simple));
  async run(m: Model, r: Real): Promise<void> {
    for (const [k, v] of Object.entries(this.value)) setSimple(m.user, `name.${k}` as Simple, v);
    await patchAndCompare(m, r, [{ op: 'replace', path: 'name', value: this.value }], 'replace name');
  }
  toString = () => `ReplaceName(${show(this.value)})`;
}

/** PATCH `remove` of a single-valued attribute: unassigned after (RFC 7644 §3.5.2.2). */
export class RemoveSimple implements Command {
  constructor(readonly path: (typeof REMOVABLE)[number]) {}
  check = (m: Model) => m.listed.includes(this.path);
  async run(m: Model, r: Real): Promise<void> {
    setSimple(m.user, this.path, undefined);
    await patchAndCompare(m, r, [{ op: 'remove', path: this.path }], `remove ${this.path}`);
  }
  toString = () => `Remove(${this.path})`;
}

/** PATCH `add` to `emails` with a path: the values are appended (RFC 7644 §3.5.2.1). */
export class AddEmails implements Command {
  constructor(readonly emails: readonly { local: string; type: EmailType }[]) {}
  check = (m: Model) => m.user.emails !== UNKNOWN;
  async run(m: Model, r: Real): Promise<void> {
    const added = this.emails.map((e) => ({ value: address(m, r.f, e.local), type: e.type }));
    m.user.emails = [...((m.user.emails as Email[] | undefined) ?? []), ...added];
    await patchAndCompare(m, r, [{ op: 'add', path: 'emails', value: added }], 'add to emails');
  }
  toString = () => `AddEmails(${show(this.emails)})`;
}

const hasType = (m: Model, type: EmailType): boolean => m.user.emails !== UNKNOWN && (m.user.emails ?? []).some((e) => e.type === type);

/** PATCH `remove` with `emails[type eq "…"]`: only the matching values go (RFC 7644 §3.5.2.2). */
export class RemoveEmailsOfType implements Command {
  constructor(readonly type: EmailType) {}
  check = (m: Model) => hasType(m, this.type) && (!m.emailsRequired || (m.user.emails as Email[]).some((e) => e.type !== this.type));
  async run(m: Model, r: Real): Promise<void> {
    const rest = (m.user.emails as Email[]).filter((e) => e.type !== this.type);
    m.user.emails = rest.length === 0 ? undefined : rest;
    const path = `emails[type eq ${literal(this.type)}]`;
    await patchAndCompare(m, r, [{ op: 'remove', path }], `remove ${path}`);
  }
  toString = () => `RemoveEmailsOfType(${this.type})`;
}

/** PATCH `replace` with `emails[type eq "…"].value`: the sub-attribute of the matching values (RFC 7644 §3.5.2.3). */
export class ReplaceEmailValueOfType implements Command {
  constructor(
    readonly type: EmailType,
    readonly local: string,
  ) {}
  check = (m: Model) => hasType(m, this.type);
  async run(m: Model, r: Real): Promise<void> {
    const value = address(m, r.f, this.local);
    m.user.emails = (m.user.emails as Email[]).map((e) => (e.type === this.type ? { ...e, value } : e));
    const path = `emails[type eq ${literal(this.type)}].value`;
    await patchAndCompare(m, r, [{ op: 'replace', path, value }], `replace ${path}`);
  }
  toString = () => `ReplaceEmailValueOfType(${this.type}, ${show(this.local)})`;
}

/** PATCH `add` or `replace` without a path: the value's attributes (RFC 7644 §3.5.2.1, §3.5.2.3). */
export class NoPath implements Command {
  constructor(
    readonly op: 'add' | 'replace',
    readonly attrs: Partial<Record<'displayName' | 'title' | 'nickName' | 'active', string | boolean>>,
    readonly emails: readonly { local: string; type: EmailType }[],
  ) {}
  check = (m: Model) =>
    Object.keys(this.attrs).every((k) => m.listed.includes(k as Simple)) && (this.emails.length === 0 || m.user.emails !== UNKNOWN || this.op === 'replace');
  async run(m: Model, r: Real): Promise<void> {
    const value: Json = { ...this.attrs };
    for (const [k, v] of Object.entries(this.attrs)) setSimple(m.user, k as Simple, v);
    if (this.emails.length > 0) {
      const emails = this.emails.map((e) => ({ value: address(m, r.f, e.local), type: e.type }));
      value.emails = emails;
      // add appends to a multi-valued attribute; replace without a filter replaces all its values.
      m.user.emails = this.op === 'add' ? [...((m.user.emails as Email[] | undefined) ?? []), ...emails] : emails;
    }
    await patchAndCompare(m, r, [{ op: this.op, value }], `${this.op} without a path`);
  }
  toString = () => `NoPath(${this.op}, ${show(this.attrs)}, emails ${show(this.emails)})`;
}

/** A user body carrying the given tracked attributes (name always: the platform requires it). */
export function userPutBody(f: Fixtures, attrs: Partial<Record<Simple, string | boolean>>, emails: readonly Email[] | undefined): Json {
  const body: Json = { schemas: [SCIM_SCHEMAS.user], userName: f.userName, name: { givenName: attrs['name.givenName'], familyName: attrs['name.familyName'] } };
  for (const k of ['displayName', 'title', 'nickName', 'active'] as const) if (attrs[k] !== undefined) body[k] = attrs[k];
  if (emails !== undefined) body.emails = emails;
  return body;
}

/** PUT of a body with some tracked attributes: those left out become unknown (RFC 7644 §3.5.1 lets a PUT clear or keep them). */
export class PutUser implements Command {
  constructor(
    readonly attrs: Partial<Record<Simple, string | boolean>> & { 'name.givenName': string; 'name.familyName': string },
    readonly emails: readonly { local: string; type: EmailType }[] | undefined,
  ) {}
  check = () => true;
  async run(m: Model, { t, f }: Real): Promise<void> {
    const emails = this.emails?.map((e) => ({ value: address(m, f, e.local), type: e.type }));
    // What the target's User does not have is not sent (fitUser) and stays unknown.
    for (const path of SIMPLE) m.user.simple[path] = m.listed.includes(path) ? (this.attrs[path] ?? UNKNOWN) : UNKNOWN;
    m.user.emails = emails ?? UNKNOWN;
    const res = await putScimUser(t, f.userId, userPutBody(f, this.attrs, emails));
    if (res.status !== 200 || !objectBody(res)) fail('200 with the user for PUT (to set the model)', describeResponse(res), res);
    compareUser('the user after PUT', objectBody(res) as Json, m.user, res);
  }
  toString = () => `PutUser(${show(this.attrs)}, emails ${show(this.emails)})`;
}

export class GetUser implements Command {
  check = () => true;
  async run(m: Model, { t, f }: Real): Promise<void> {
    const res = await t.http.send({ op: 'scim.users.get', params: { id: f.userId } });
    if (res.status !== 200 || !objectBody(res)) fail('200 with the user for GET', describeResponse(res), res);
    compareUser('the stored user', objectBody(res) as Json, m.user, res);
  }
  toString = () => 'GetUser';
}

/** PATCH `add` with path `members` and an array value: the users join (RFC 7644 §3.5.2.1). */
export class AddMembers implements Command {
  constructor(readonly picks: readonly number[]) {}
  check = () => true;
  async run(m: Model, { t, f }: Real): Promise<void> {
    const ids = [...new Set(this.picks.map((p) => f.memberPool[p % f.memberPool.length] as string))];
    for (const id of ids) m.members.add(id);
    const res = await patchGroup(t, f.groupId, [{ op: 'add', path: 'members', value: ids.map((value) => ({ value })) }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', f.groupId, 'add to members');
    compareMembers('the group after add to members', resource, m.members, shown);
  }
  toString = () => `AddMembers(${show(this.picks)})`;
}

/** PATCH `remove` with `members[value eq "<id>"]`: that member leaves, the others stay (RFC 7644 §3.5.2.2). */
export class RemoveMember implements Command {
  constructor(readonly pick: number) {}
  check = (m: Model) => m.members.size > 0;
  async run(m: Model, { t, f }: Real): Promise<void> {
    const id = [...m.members][this.pick % m.members.size] as string;
    m.members.delete(id);
    const path = `members[value eq ${literal(id)}]`;
    const res = await patchGroup(t, f.groupId, [{ op: 'remove', path }]);
    const { resource, res: shown } = await patchedResource(t, res, 'group', f.groupId, `remove ${path}`);
    compareMembers(`the group after remove ${path}`, resource, m.members, shown);
  }
  toString = () => `RemoveMember(#${this.pick})`;
}

export class GetGroup implements Command {
  check = () => true;
  async run(m: Model, { t, f }: Real): Promise<void> {
    const res = await t.http.send({ op: 'scim.groups.get', params: { id: f.groupId } });
    if (res.status !== 200 || !objectBody(res)) fail('200 with the group for GET', describeResponse(res), res);
    compareMembers('the stored group', objectBody(res) as Json, m.members, res);
  }
  toString = () => 'GetGroup';
}

// ---- Arbitraries ------------------------------------------------------------------------------

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,11}$/);
const local = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const emailType = fc.constantFrom(...EMAIL_TYPES);
const newEmails = (min: number) => fc.array(fc.record({ local, type: emailType }), { minLength: min, maxLength: 2 });
const simpleValue = (path: Simple): fc.Arbitrary<string | boolean> => (path === 'active' ? fc.boolean() : word);
const pick = fc.nat({ max: 1000 });

const replaceSimple = fc.constantFrom(...SIMPLE).chain((path) => simpleValue(path).map((v) => new ReplaceSimple(path, v)));
const noPath = fc
  .tuple(
    fc.constantFrom('add' as const, 'replace' as const),
    fc.record({ displayName: word, title: word, nickName: word, active: fc.boolean() }, { requiredKeys: [] }),
    newEmails(0),
  )
  .filter(([, attrs, emails]) => Object.keys(attrs).length > 0 || emails.length > 0)
  .map(([op, attrs, emails]) => new NoPath(op, attrs, emails));
const putUser = fc
  .tuple(
    fc.record(
      { displayName: word, title: word, nickName: word, active: fc.boolean(), 'name.givenName': word, 'name.familyName': word },
      { requiredKeys: ['name.givenName', 'name.familyName'] },
    ),
    fc.option(newEmails(1), { nil: undefined }),
  )
  .map(([attrs, emails]) => new PutUser(attrs, emails));

/** The command sequences: the email commands stand twice, so that a run meets two types and a filter between them. */
export const patchCommands = (replayPath?: string) =>
  fc.commands(
    [
      replaceSimple,
      fc
        .record({ givenName: word, familyName: word }, { requiredKeys: [] })
        .filter((v) => Object.keys(v).length > 0)
        .map((v) => new ReplaceName(v)),
      fc.constantFrom(...REMOVABLE).map((p) => new RemoveSimple(p)),
      newEmails(1).map((e) => new AddEmails(e)),
      newEmails(1).map((e) => new AddEmails(e)),
      emailType.map((type) => new RemoveEmailsOfType(type)),
      emailType.map((type) => new RemoveEmailsOfType(type)),
      fc.tuple(emailType, local).map(([type, l]) => new ReplaceEmailValueOfType(type, l)),
      fc.tuple(emailType, local).map(([type, l]) => new ReplaceEmailValueOfType(type, l)),
      noPath,
      putUser,
      fc.constant(new GetUser()),
      fc.array(pick, { minLength: 1, maxLength: 3 }).map((p) => new AddMembers(p)),
      pick.map((p) => new RemoveMember(p)),
      fc.constant(new GetGroup()),
    ],
    { maxCommands: 10, ...(replayPath ? { replayPath } : {}) },
  );

/** The state each run starts from: the user PUT with known attributes and one work email, the group PUT without members. */
export async function resetFixtures(t: CheckContext, f: Fixtures): Promise<Model> {
  const user: UserModel = {
    simple: { displayName: 'Lpc Patch', title: undefined, nickName: undefined, active: true, 'name.givenName': 'Lpc', 'name.familyName': 'Patch' },
    emails: [{ value: `start.0.${f.mailTag}@example.com`, type: 'work' }],
  };
  const body = userPutBody(f, { displayName: 'Lpc Patch', active: true, 'name.givenName': 'Lpc', 'name.familyName': 'Patch' }, user.emails as Email[]);
  const put = await putScimUser(t, f.userId, body);
  if (put.status !== 200) notSetUp(put, 'the PUT that resets the user before a run');
  // title and nickName: a PUT that leaves them out MAY keep them (RFC 7644 §3.5.1): unknown until set;
  // and what the target's User does not have is never known.
  user.simple.title = UNKNOWN;
  user.simple.nickName = UNKNOWN;
  for (const path of SIMPLE) if (!f.simple.includes(path)) user.simple[path] = UNKNOWN;
  const group = await t.http.send({
    op: 'scim.groups.replace',
    params: { id: f.groupId },
    json: { schemas: [SCIM_SCHEMAS.group], displayName: f.groupName, members: [] },
  });
  const shown = objectBody(group);
  if (group.status !== 200 || !shown) notSetUp(group, 'the PUT that resets the group before a run');
  const members = new Set(Array.isArray(shown.members) ? (shown.members as Json[]).map((x) => String(x?.value)) : []);
  return { user, members, seq: 1, listed: f.simple, emailsRequired: f.emailsRequired };
}
