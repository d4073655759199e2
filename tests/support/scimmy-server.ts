// A SCIM server nobody here wrote, for tests/run/scim/scimmy.test.ts: SCIMMY (the packages scimmy and
// scimmy-routers, MIT: filters, PATCH, lists, sorting, discovery, /Me and /Bulk) on express. SCIMMY
// leaves storage to its user through three handlers (ingress: create and replace, egress: read and
// list, degress: delete); the in-memory store below is ours, written as a user of SCIMMY would, and
// keeps what RFC 7643 and 7644 ask of storage (unique userName, lastModified that moves only when
// something changed, a user's derived groups, members that name a resource). Every answer's shape,
// status and filter evaluation is SCIMMY's.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import SCIMMY from 'scimmy';
import SCIMMYRouters from 'scimmy-routers';

type Json = Record<string, unknown>;

export interface Scimmy {
  /** The server's origin; SCIM is at `${url}/scim/v2`. */
  readonly url: string;
  /** The bearer token it accepts. */
  readonly token: string;
  close(): Promise<void>;
}

/** SCIMMY's error (its own code passes no scimType as null; its typings want a string). */
const scimError = (status: number, scimType: string | null, message: string): Error => new SCIMMY.Types.Error(status, scimType as string, message);
const plain = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;
const without = (record: Json, keys: readonly string[]): Json => Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));

/** Starts SCIMMY on a loopback port. SCIMMY's resource handlers are process-wide: one server per process at a time. */
export async function startScimmy(): Promise<Scimmy> {
  const token = `scimmy-${randomUUID()}`;
  const users = new Map<string, Json>();
  const groups = new Map<string, Json>();
  const now = (): string => new Date().toISOString();
  // The account the token stands for (GET /Me).
  const admin = randomUUID();
  users.set(admin, { id: admin, userName: 'scimmy-admin', active: true, meta: { created: now(), lastModified: now() } });

  /** A user as read: with the groups whose members name it (RFC 7643 §4.1.2, readOnly). */
  const userOut = (u: Json): Json => {
    const of = [...groups.values()].filter((g) => ((g.members as Json[] | undefined) ?? []).some((m) => m.value === u.id));
    return of.length === 0 ? u : { ...u, groups: of.map((g) => ({ value: g.id, display: g.displayName, type: 'direct' })) };
  };

  /** The handlers of one resource type; `Out` is what SCIMMY's typings want back (a stored record). */
  function handlers<Out>(store: Map<string, Json>, kind: 'User' | 'Group') {
    const out = (r: Json): Out => (kind === 'User' ? userOut(r) : r) as unknown as Out;
    return {
      ingress(resource: { id?: string }, instance: unknown): Out {
        const id = resource.id;
        const old = id === undefined ? undefined : store.get(id);
        if (id !== undefined && old === undefined) throw scimError(404, null, `Resource ${id} not found`);
        const body = without(plain(instance), ['schemas', 'meta', 'id', 'groups']);
        if (kind === 'User') {
          const name = String(body.userName ?? '').toLowerCase();
          if ([...users.values()].some((u) => u.id !== id && String(u.userName).toLowerCase() === name))
            throw scimError(409, 'uniqueness', `userName ${String(body.userName)} is taken`);
        } else if (Array.isArray(body.members)) {
          // A member that names no user or group is not stored (RFC 7643 §4.2).
          body.members = (body.members as Json[]).filter((m) => users.has(String(m.value)) || groups.has(String(m.value)));
        }
        const same = old !== undefined && JSON.stringify(without(old, ['id', 'meta'])) === JSON.stringify(body);
        const created = (old?.meta as Json | undefined)?.created ?? now();
        const lastModified = same ? (old.meta as Json).lastModified : now();
        const record: Json = { ...body, id: id ?? randomUUID(), meta: { created, lastModified } };
        store.set(String(record.id), record);
        return out(record);
      },
      egress(resource: { id?: string; filter?: { match(items: Out[]): Out[] } }): Out | Out[] {
        if (resource.id !== undefined) {
          const found = store.get(resource.id);
          if (found === undefined) throw scimError(404, null, `Resource ${resource.id} not found`);
          return out(found);
        }
        const all = [...store.values()].map(out);
        return resource.filter ? resource.filter.match(all) : all;
      },
      degress(resource: { id?: string }): void {
        if (resource.id === undefined || !store.delete(resource.id)) throw scimError(404, null, `Resource ${String(resource.id)} not found`);
        for (const g of groups.values()) if (Array.isArray(g.members)) g.members = (g.members as Json[]).filter((m) => m.value !== resource.id);
      },
    };
  }
  type Stored<R extends { ingress(handler: never): unknown }> = Awaited<ReturnType<Parameters<R['ingress']>[0]>>;
  const u = handlers<Stored<typeof SCIMMY.Resources.User>>(users, 'User');
  SCIMMY.Resources.declare(SCIMMY.Resources.User).ingress(u.ingress).egress(u.egress).degress(u.degress);
  const g = handlers<Stored<typeof SCIMMY.Resources.Group>>(groups, 'Group');
  SCIMMY.Resources.declare(SCIMMY.Resources.Group).ingress(g.ingress).egress(g.egress).degress(g.degress);

  const app = express();
  app.use(
    '/scim/v2',
    new SCIMMYRouters({
      type: 'bearer',
      handler: (req: express.Request) => {
        if (req.header('authorization') !== `Bearer ${token}`) throw new Error('Authorization failed');
        return admin;
      },
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
