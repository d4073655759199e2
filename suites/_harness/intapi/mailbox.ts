/**
 * The target's mailbox, read through a Mailpit-style HTTP API (profile `mailbox.api`;
 * `GET <api>/api/v1/messages` answers `{messages: [{ID, To: [{Address}], Subject, Created}]}`).
 * A bundled run reads the local SMTP sink the command line starts (src/families/intapi/mail-sink.ts); against a
 * deployed server the profile names its Mailpit. Without a mailbox the mail checks are skipped.
 */
import { request } from 'undici';
import { sleep } from '../../../src/target/base/retry.js';
import type { CheckContext } from '../requirement.js';

export interface MailMessage {
  readonly id: string;
  readonly to: readonly string[];
  readonly subject: string;
}

/** The mailbox API's base URL, or the check is skipped. */
export function mailboxOf(t: CheckContext): string {
  const { api, env } = t.profile.mailbox ?? {};
  if (!api && env) t.skip(`${env} is not set (the profile's mailbox.api: a Mailpit-style API), so the mail the target sends cannot be read`);
  if (!api) t.skip('the profile names no mailbox (mailbox.api: a Mailpit-style API), so the mail the target sends cannot be read');
  return api.replace(/\/+$/, '');
}

/** Every message the mailbox holds for `address` (case-insensitive), newest first. */
export async function messagesTo(t: CheckContext, address: string): Promise<MailMessage[]> {
  const res = await request(`${mailboxOf(t)}/api/v1/messages?limit=1000`, {
    method: 'GET',
    headersTimeout: t.config.timeoutMs,
    bodyTimeout: t.config.timeoutMs,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`the mailbox API answered ${res.statusCode}: ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as { messages?: { ID?: unknown; To?: { Address?: unknown }[] | null; Subject?: unknown }[] };
  const wanted = address.toLowerCase();
  return (body.messages ?? [])
    .map((m) => ({ id: String(m.ID), to: (m.To ?? []).map((r) => String(r.Address).toLowerCase()), subject: String(m.Subject ?? '') }))
    .filter((m) => m.to.includes(wanted));
}

/**
 * The messages to `address` that are not among `before`, once the count has stayed put for
 * `settleMs` after the first new one (or `waitMs` passed without any): a second mail sent a moment
 * after the first is counted too.
 */
export async function newMessagesTo(t: CheckContext, address: string, before: readonly MailMessage[], waitMs = 5000, settleMs = 750): Promise<MailMessage[]> {
  const seen = new Set(before.map((m) => m.id));
  const started = Date.now();
  let fresh: MailMessage[] = [];
  let changedAt = started;
  for (;;) {
    const now = (await messagesTo(t, address)).filter((m) => !seen.has(m.id));
    if (now.length !== fresh.length) changedAt = Date.now();
    fresh = now;
    const elapsed = Date.now() - started;
    if (fresh.length > 0 && Date.now() - changedAt >= settleMs) return fresh;
    if (fresh.length === 0 && elapsed >= waitMs) return fresh;
    await sleep(100);
  }
}
