// The command line as one bundle (dist/cli/), and the suites as another (dist/suites/), built after
// tsc by `npm run build` (esbuild, which vite already brings). Every run starts a process that loads the CLI, the reference server and their
// packages: loading them file by file is a large share of a short run's start-up, which every run of
// the tests, every shard of a sharded run and every `serve` pays; one bundle opens far fewer files. The lazy parts (the reference server, the runner, the
// reporters, init, openapi...) stay lazy: split chunks, loaded when a command needs them.
//
// Left outside the bundle, loaded from node_modules as before: oidc-provider, playwright-core,
// @sparticuz/chromium, loaded only when the OAuth flow or a browser starts, and they read files of
// their own packages.
//
// Families from folders of their own (DEVELOPERS.md "A family from a folder of its own"):
// LPC_FAMILY_DIRS names the folders (separated as PATH is, relative to the repository). Each holds a
// family's parts of every layer: `family.ts` (its registration with the tool, `export const family`),
// `server.ts` (its reference-server family, `export const serverFamily`), `checks/*.check.ts` and
// `harness/*.ts`; the build puts them in the place of the empty lists of src/families/found.ts,
// reference-impl/http/found.ts and suites/_harness/found.ts. LPC_BUILD_DIR writes both bundles into
// another folder than dist/ (its cli/ and suites/ side by side, as in dist/).
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** CommonJS packages in an ES module bundle call require(): both bundles give them one. */
const REQUIRE_BANNER = { js: "import { createRequire as lpcCreateRequire } from 'node:module'; const require = lpcCreateRequire(import.meta.url);" };
const buildDir = resolve(root, process.env.LPC_BUILD_DIR || 'dist');
const outdir = join(buildDir, 'cli');

const familyDirs = (process.env.LPC_FAMILY_DIRS ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '')
  .map((dir) => resolve(root, dir));
for (const dir of familyDirs) if (!existsSync(join(dir, 'family.ts'))) throw new Error(`LPC_FAMILY_DIRS: ${relative(root, dir)} has no family.ts`);
const inFamilyDir = (file) => familyDirs.some((dir) => file.startsWith(`${dir}${sep}`));
const filesOf = (pattern) => familyDirs.flatMap((dir) => globSync(pattern, { cwd: dir, absolute: true, expandDirectories: false }).sort());

/** Each found.ts (found.js as tsc wrote it), by its path in its layer: its lists of the families' parts. */
const FOUND_LISTS = {
  'src/families/found': () => {
    const files = filesOf('family.ts');
    return `${files.map((f, i) => `import { family as f${i} } from ${JSON.stringify(f)};`).join('\n')}\nexport const FOUND_FAMILIES = [${files.map((_, i) => `f${i}`).join(', ')}];`;
  },
  'reference-impl/http/found': () => {
    const files = filesOf('server.ts');
    return `${files.map((f, i) => `import { serverFamily as s${i} } from ${JSON.stringify(f)};`).join('\n')}\nexport const FOUND_SERVER_FAMILIES = [${files.map((_, i) => `s${i}`).join(', ')}];`;
  },
  'suites/_harness/found': () => {
    const checks = filesOf('checks/*.check.ts').map((f) => `${JSON.stringify(relative(root, f).split(sep).join('/'))}: () => import(${JSON.stringify(f)})`);
    const harness = filesOf('harness/*.ts');
    return [
      ...harness.map((f, i) => `import * as h${i} from ${JSON.stringify(f)};`),
      `export const FOUND_CHECK_FILES = { ${checks.join(', ')} };`,
      `export const FOUND_HARNESS_MODULES = [${harness.map((_, i) => `h${i}`).join(', ')}];`,
    ].join('\n');
  },
};

/**
 * The found families in a bundle's found.ts lists. `fromDist`: the bundle is built from tsc's output
 * (the command line), and what a family folder imports of the tool, the reference server or the
 * reporters is taken from there too, one copy of each module.
 * @returns {import('esbuild').Plugin}
 */
const foundFamilies = ({ fromDist }) => ({
  name: 'found-families',
  setup(b) {
    if (familyDirs.length === 0) return;
    b.onLoad({ filter: /[\\/]found\.[jt]s$/ }, (args) => {
      const list =
        FOUND_LISTS[
          relative(root, args.path)
            .split(sep)
            .join('/')
            .replace(/^dist\//, '')
            .replace(/\.[jt]s$/, '')
        ];
      return list === undefined ? undefined : { contents: list(), loader: 'js', resolveDir: dirname(args.path) };
    });
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!fromDist || !inFamilyDir(args.importer)) return undefined;
      const path = relative(root, resolve(args.resolveDir, args.path));
      return /^(src|reference-impl|reporters)[\\/]/.test(path) ? { path: join(root, 'dist', path) } : undefined;
    });
  },
});
rmSync(outdir, { recursive: true, force: true });
// The package's library entries (package.json `exports`) share the command line's chunks: one copy of
// each module, whichever entry a process loads first.
await build({
  entryPoints: [
    { in: join(root, 'dist', 'src', 'cli', 'main.js'), out: 'main' },
    { in: join(root, 'dist', 'src', 'library', 'index.js'), out: 'library' },
    { in: join(root, 'dist', 'src', 'library', 'reference-server.js'), out: 'reference-server' },
  ],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['oidc-provider', 'playwright-core', '@sparticuz/chromium'],
  banner: REQUIRE_BANNER,
  plugins: [foundFamilies({ fromDist: true })],
  logLevel: 'warning',
});

// The suites as one module: the worker a run starts (src/runner/run.ts) loads suites/_harness/worker.ts,
// the suite files, the parts of src/ they import and their packages from dist/suites/checks.js, instead of
// some 140 modules and the packages' files one by one. The browser's packages stay outside: they read
// files of their own and load only when a player check starts one. (Loading undici, fast-check, ajv and
// yaml from node_modules file by file costs every run more start-up than bundling them.)
//
// The suites find their files with vite's import.meta.glob (all-checks.ts, blockers.ts,
// invariants.ts), which esbuild does not know: `importMetaGlob` below expands the forms they use into
// what vite makes of them. The lazy form stays lazy (esbuild turns an import() of a bundled module into
// a call of its init function), so a suite file that throws while it loads is still its own failed
// check (all-checks.ts), in path order.
const GLOB = /import\.meta\.glob(?:<[^>()]*>)?\(\s*'([^']+)'\s*(,\s*\{\s*eager:\s*true\s*\}\s*)?\)/g;

/** @type {import('esbuild').Plugin} */
const importMetaGlob = {
  name: 'import-meta-glob',
  setup(b) {
    b.onLoad({ filter: /[\\/]suites[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.glob')) return undefined;
      const dir = dirname(args.path);
      const eagerImports = [];
      const contents = source.replace(GLOB, (_call, pattern, eager) => {
        const files = globSync(pattern, { cwd: dir, expandDirectories: false })
          .map((f) => (f.startsWith('.') ? f : `./${f}`))
          .sort();
        if (files.length === 0) throw new Error(`${relative(root, args.path)}: import.meta.glob('${pattern}') matches no file`);
        const entries = files.map((f) => {
          if (!eager) return `${JSON.stringify(f)}: () => import(${JSON.stringify(f)})`;
          const name = `lpcGlob${eagerImports.length}`;
          eagerImports.push(`import * as ${name} from ${JSON.stringify(f)};`);
          return `${JSON.stringify(f)}: ${name}`;
        });
        return `({ ${entries.join(', ')} })`;
      });
      // A form the expression above does not take (another option, a pattern list) would reach
      // esbuild as is and fail at run time: fail the build instead.
      if (contents.includes('import.meta.glob')) throw new Error(`${relative(root, args.path)}: an import.meta.glob this build does not expand`);
      return { contents: `${eagerImports.join('\n')}\n${contents}`, loader: 'ts', resolveDir: dir };
    });
  },
};

const suitesOut = join(buildDir, 'suites');
rmSync(suitesOut, { recursive: true, force: true });
await build({
  entryPoints: [join(root, 'suites', '_harness', 'worker.ts')],
  outfile: join(suitesOut, 'checks.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['playwright-core', '@sparticuz/chromium'],
  banner: REQUIRE_BANNER,
  plugins: [foundFamilies({ fromDist: false }), importMetaGlob],
  logLevel: 'warning',
});
