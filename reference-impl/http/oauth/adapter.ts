/**
 * The OAuth server's storage: an in-memory oidc-provider adapter (one Map per server), which the
 * family's guard reads synchronously to accept an access token (`accessTokenAccount`).
 * Expiry is oidc-provider's (`expiresIn` seconds on the wall clock); the guard also checks `exp`.
 */
type Payload = Record<string, unknown> & { consumed?: number; grantId?: string; uid?: string; userCode?: string };

interface Entry {
  payload: Payload;
  /** Epoch milliseconds, or undefined (no expiry). */
  expiresAt: number | undefined;
}

export class OAuthStorage {
  readonly #entries = new Map<string, Entry>();

  /**
   * @param consumeCodes false under the fault `<family>.oauth-code-reusable`: consuming a code records
   * nothing, so the code can be exchanged again.
   */
  constructor(readonly consumeCodes: boolean) {}

  #key = (model: string, id: string) => `${model}:${id}`;

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** The oidc-provider adapter class of a model name (its interface: upsert, find, consume, ...). */
  adapterFor(model: string) {
    const live = (key: string) => this.#live(key);
    const entries = this.#entries;
    const key = (id: string) => this.#key(model, id);
    const consumes = model !== 'AuthorizationCode' || this.consumeCodes;
    return {
      upsert: (id: string, payload: Payload, expiresIn?: number) => {
        entries.set(key(id), { payload, expiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000 });
        return Promise.resolve();
      },
      find: (id: string) => Promise.resolve(live(key(id))?.payload),
      findByUid: (uid: string) => Promise.resolve([...entries.entries()].find(([k, e]) => k.startsWith(`${model}:`) && e.payload.uid === uid)?.[1].payload),
      findByUserCode: (userCode: string) =>
        Promise.resolve([...entries.entries()].find(([k, e]) => k.startsWith(`${model}:`) && e.payload.userCode === userCode)?.[1].payload),
      consume: (id: string) => {
        const entry = live(key(id));
        if (entry !== undefined && consumes) entry.payload = { ...entry.payload, consumed: Math.floor(Date.now() / 1000) };
        return Promise.resolve();
      },
      destroy: (id: string) => {
        entries.delete(key(id));
        return Promise.resolve();
      },
      revokeByGrantId: (grantId: string) => {
        for (const [k, e] of entries) if (e.payload.grantId === grantId) entries.delete(k);
        return Promise.resolve();
      },
    };
  }

  /** The account of a live access token with the scope, or undefined. */
  accessTokenAccount(token: string, scope: string, nowMs: number): string | undefined {
    const payload = this.#live(this.#key('AccessToken', token))?.payload;
    if (payload === undefined) return undefined;
    const exp = typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
    if (exp !== undefined && exp <= nowMs) return undefined;
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    return typeof payload.accountId === 'string' && scopes.includes(scope) ? payload.accountId : undefined;
  }
}
