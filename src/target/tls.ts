/**
 * How the tool verifies a target's TLS certificate, the same on every path that reaches a target
 * (the suites' client, the token exchanges, the preflight, cleanup, the mailbox and OAuth reads,
 * a browser that opens a page of the target):
 * - by default against Node's CAs (its bundled Mozilla roots, and NODE_EXTRA_CA_CERTS, which Node
 *   reads when it starts);
 * - `--ca FILE`: the PEM certificates of FILE trusted besides those (a self-signed target's own
 *   certificate, or a company CA);
 * - `--insecure`: no verification at all; the run model records it and every report says so.
 *
 * The run configuration carries the file's path, not its certificates: the suites' worker reads it
 * (`useTls`), as the command line's process does.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext, rootCertificates, type ConnectionOptions } from 'node:tls';
import { Agent, setGlobalDispatcher } from 'undici';
import type { TlsConfig } from '../runner/base/model.js';

export type { TlsConfig };

/** A `--ca` file that holds no usable certificate: a configuration error (exit 2, one line). */
export class TlsConfigError extends Error {}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The TLS configuration of `--ca FILE` and `--insecure` (the file read and checked now). */
export function tlsConfigOf(options: { ca?: string | undefined; insecure?: boolean | undefined }): TlsConfig | undefined {
  if (options.ca !== undefined && options.insecure) throw new TlsConfigError('--ca and --insecure contradict each other: --insecure verifies no certificate');
  if (options.insecure) return { insecure: true };
  if (options.ca === undefined) return undefined;
  const ca = resolve(options.ca);
  readCertificates(ca);
  return { ca };
}

/** The PEM certificates of a file; throws TlsConfigError naming the file when it has none that parse. */
export function readCertificates(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TlsConfigError(`--ca ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const pems = text.match(PEM_CERTIFICATE) ?? [];
  if (pems.length === 0) throw new TlsConfigError(`--ca ${file}: no PEM certificate in it (-----BEGIN CERTIFICATE----- …)`);
  for (const pem of pems) {
    try {
      new X509Certificate(pem);
      createSecureContext({ ca: pem });
    } catch (error) {
      throw new TlsConfigError(`--ca ${file}: a certificate in it does not parse (${(error as Error).message.split('\n')[0]})`);
    }
  }
  return pems;
}

/** NODE_EXTRA_CA_CERTS' certificates: Node trusts them by default, and a `ca` option replaces the
 * default store, so they are added back beside `--ca`'s. An unreadable file Node has warned about. */
function extraCertificates(env: NodeJS.ProcessEnv): string[] {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return readFileSync(file, 'utf8').match(PEM_CERTIFICATE) ?? [];
  } catch {
    return [];
  }
}

/** The options of a TLS connection to a target under `config`. */
export function connectOptions(config: TlsConfig | undefined, env: NodeJS.ProcessEnv = process.env): ConnectionOptions {
  if (config?.insecure) return { rejectUnauthorized: false };
  if (config?.ca) return { ca: [...rootCertificates, ...extraCertificates(env), ...readCertificates(config.ca)] };
  return {};
}

let current: ConnectionOptions = {};
/** The global dispatcher `useTls` last set, closed when the next call replaces it. */
let ours: Agent | undefined;

/** Makes `config` this process's (or worker thread's) way to verify targets: undici's global
 * dispatcher (undici's `request`, and Node's `fetch`, which reads the same global) and the options
 * `tlsOptions()` hands the clients that keep their own dispatcher. Without `--ca` or `--insecure`,
 * Node's defaults: left as they are, or put back after an earlier call set others (main() called
 * again in one process, as the tests' command-line hosts do). */
export function useTls(config: TlsConfig | undefined): void {
  const options = connectOptions(config);
  const defaults = Object.keys(options).length === 0;
  if (defaults && Object.keys(current).length === 0) return;
  current = options;
  const previous = ours;
  ours = defaults ? new Agent() : new Agent({ connect: current });
  setGlobalDispatcher(ours);
  // Its keep-alive connections would stay open for as long as each server keeps them (once its
  // requests have ended: close() lets them finish).
  void previous?.close();
}

/** The TLS options `useTls` set (none: Node's defaults). */
export function tlsOptions(): ConnectionOptions {
  return current;
}

/** Chromium's flags for `config`: `--insecure` ignores certificate errors; `--ca` ignores them for a
 * chain that holds one of the file's certificates (by its public key's SHA-256), which Chromium can
 * only check when the server presents that certificate (a self-signed one, or a chain that includes
 * the CA); Chromium reads no CA file. */
export function chromiumTlsArgs(config: TlsConfig | undefined): string[] {
  if (config?.insecure) return ['--ignore-certificate-errors'];
  if (!config?.ca) return [];
  const hashes = readCertificates(config.ca).map((pem) =>
    createHash('sha256')
      .update(new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64'),
  );
  return [`--ignore-certificate-errors-spki-list=${hashes.join(',')}`];
}

/** The TLS error codes of Node (OpenSSL's verification results), said for a user. */
const TLS_PROBLEMS: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed CA that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its certificate's issuer is not trusted (or the server does not send the intermediate certificates)",
  UNABLE_TO_GET_ISSUER_CERT: "its certificate's issuer is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "its certificate's issuer is not trusted",
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: "its certificate does not name the URL's host",
  CERT_REVOKED: 'its certificate is revoked',
};

/** A TLS verification failure said in a line, with what to do; undefined when `error` is not one. */
export function tlsProblem(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in TLS_PROBLEMS) {
      return `TLS: ${TLS_PROBLEMS[code]} (${code}); trust its CA with --ca FILE (PEM) or NODE_EXTRA_CA_CERTS=FILE, or skip the check with --insecure`;
    }
    if (typeof code === 'string' && (code.startsWith('ERR_SSL_') || code === 'EPROTO')) {
      return `TLS handshake failed (${code}: ${String((e as Error).message).split('\n')[0]}); is the URL's scheme right (http or https)?`;
    }
  }
  return undefined;
}
