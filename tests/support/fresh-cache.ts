// vitest globalSetup: every `npm test` gets an empty run cache of its own (src/util/cache.ts,
// LPC_CACHE_DIR), inherited by the test workers and every command line they start, so that no
// result depends on what an earlier run, or the user's own runs, left in the cache folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'lpc-test-cache-'));
  process.env.LPC_CACHE_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
