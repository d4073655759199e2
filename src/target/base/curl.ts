/**
 * Copy-pasteable curl command lines for an exchange. Header values that are secrets are written
 * as `${VAR}` (double-quoted so the shell expands them); everything else is single-quoted.
 */
export interface CurlRequest {
  method: string;
  url: string;
  /** Header name → literal value, or `{ env: VAR, prefix? }` for a secret (`Bearer ${VAR}`). */
  headers: Record<string, string | { env: string; prefix?: string }>;
  body?: string;
}

/** POSIX single-quoting: 'it'\''s'. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function header(name: string, value: string | { env: string; prefix?: string }): string {
  return typeof value === 'string' ? `-H ${shellQuote(`${name}: ${value}`)}` : `-H "${name}: ${value.prefix ?? ''}\${${value.env}}"`;
}

export function renderCurl(req: CurlRequest): string {
  const parts = [`curl -sS -i -X ${req.method} ${shellQuote(req.url)}`];
  for (const [name, value] of Object.entries(req.headers)) parts.push(header(name, value));
  if (req.body !== undefined) parts.push(`--data-raw ${shellQuote(req.body)}`);
  return parts.join(' \\\n    ');
}
