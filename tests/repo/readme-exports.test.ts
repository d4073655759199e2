// The README's "Testing your server" exports name every variable the reference profile reads (each
// `{ env: NAME }` of it: credentials, OAuth clients, the mailbox): a reader who follows them has no
// check skipped for a variable the page never named.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadProfile } from '../../src/profile/index.js';
import { ROOT } from '../support/cli.js';

/** The variables of the `export` lines of the first shell block after `heading` in `file`. */
function exported(file: string, heading: RegExp): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const section = text.split(heading)[1]?.split(/^##? /m)[0] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.startsWith('export '))
    .flatMap((line) => [...line.replace(/#.*$/, '').matchAll(/\b([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1] as string));
}

/** Every variable a profile names (`{ env: NAME }`, anywhere in it). */
function variablesOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const own = typeof (value as { env?: unknown }).env === 'string' ? [(value as { env: string }).env] : [];
  return [...new Set([...own, ...Object.values(value).flatMap(variablesOf)])];
}

describe('Testing your server: the exports', () => {
  const read = variablesOf(loadProfile());
  test.each([
    ['README.md', /^## Testing your server$/m],
    ['docs/testing-your-server.md', /^# Testing your server$/m],
  ])('%s exports every variable the reference profile reads', (file, heading) => {
    expect(read).toEqual(expect.arrayContaining(['LPC_API_KEY', 'LPC_OAUTH_CLIENT_ID', 'LPC_SCIM_OAUTH_CLIENT_SECRET']));
    const names = exported(file, heading);
    expect(names.length).toBeGreaterThan(0);
    expect(read.filter((name) => !names.includes(name))).toEqual([]);
  });
});
