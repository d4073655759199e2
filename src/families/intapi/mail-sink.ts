/**
 * A local mail sink for bundled runs: a real SMTP server (`smtp-server`) on loopback that keeps
 * every message it receives, and a tiny HTTP API in Mailpit's shape on loopback that lists them
 * (`GET /api/v1/messages`: `{total, messages: [{ID, From, To, Subject, Created}]}`, newest first).
 * The reference server sends its mail to the SMTP port; the suites read the API, exactly as they
 * read a Mailpit beside a deployed server (profile `mailbox.api`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  readonly ID: string;
  readonly From: { readonly Address: string };
  readonly To: readonly { readonly Address: string }[];
  readonly Subject: string;
  readonly Created: string;
}

export interface MailSink {
  /** Where to send mail. */
  readonly smtp: { readonly host: string; readonly port: number };
  /** The Mailpit-style API's base URL (`<api>/api/v1/messages`). */
  readonly api: string;
  readonly messages: readonly SinkMessage[];
  close(): Promise<void>;
}

/** The Subject header of a message's text (unfolded; RFC 2047 words are kept as sent). */
export function subjectOf(raw: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return /^subject:[ \t]*(.*)$/im.exec(unfolded)?.[1]?.trim() ?? '';
}

const MAX_MESSAGE_BYTES = 1024 * 1024;

export async function startMailSink(host = '127.0.0.1'): Promise<MailSink> {
  const messages: SinkMessage[] = [];
  let counter = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom;
        messages.unshift({
          ID: `m${++counter}`,
          From: { Address: from === false ? '' : from.address },
          To: session.envelope.rcptTo.map((r) => ({ Address: r.address })),
          Subject: subjectOf(Buffer.concat(chunks).toString('utf8')),
          Created: new Date().toISOString(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, host, () => resolve());
  });
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sink');
    if (req.method === 'GET' && url.pathname === '/api/v1/messages') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ total: messages.length, messages }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => http.listen(0, host, resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const apiPort = (http.address() as AddressInfo).port;
  return {
    smtp: { host, port: smtpPort },
    api: `http://${host}:${apiPort}`,
    messages,
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
