// The command line as one bundle (dist/cli/), built after tsc by `npm run build` (esbuild, which
// vite already brings). Every run starts a process that loads the CLI, the reference server and their
// packages: a one-check run opened 1,116 JavaScript files (458 with the bundle), and loading them cost
// about 0.6 s of CPU (3.08 s against 2.53 s, mean of four), which the tests' 150-odd runs, every
// shard of a sharded run and every `serve` pay. The lazy parts (the reference server, the runner, the
// reporters, init, openapi...) stay lazy: split chunks, loaded when a command needs them.
//
// Left outside the bundle, loaded from node_modules as before:
// - vitest and vite: the runner starts vitest, which finds its own files and workers from its package;
// - oidc-provider, playwright-core, @sparticuz/chromium: loaded only when the OAuth flow or a browser
//   starts, and they read files of their own packages.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'cli');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['vitest', 'vitest/*', 'vite', 'oidc-provider', 'playwright-core', '@sparticuz/chromium'],
  // CommonJS packages in an ES module bundle call require(): give them one.
  banner: { js: "import { createRequire as lpcCreateRequire } from 'node:module'; const require = lpcCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
