import { noteWrite } from './writes.js';

/** An issued session token: whose it is and until when it is valid. */
export interface SessionRecord {
  readonly token: string;
  readonly userId: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
}

/** Issued tokens, found by token and by user. */
export class SessionTable {
  readonly #byToken = new Map<string, SessionRecord>();
  readonly #byUser = new Map<string, Set<string>>();

  get(token: string): SessionRecord | undefined {
    return this.#byToken.get(token);
  }

  put(session: SessionRecord): void {
    noteWrite();
    this.#byToken.set(session.token, session);
    const key = session.userId.toLowerCase();
    const tokens = this.#byUser.get(key) ?? new Set<string>();
    tokens.add(session.token);
    this.#byUser.set(key, tokens);
  }

  delete(token: string): void {
    const session = this.#byToken.get(token);
    if (session === undefined) return;
    noteWrite();
    this.#byToken.delete(token);
    this.#byUser.get(session.userId.toLowerCase())?.delete(token);
  }

  tokensOf(userId: string): string[] {
    return [...(this.#byUser.get(userId.toLowerCase()) ?? [])];
  }
}
