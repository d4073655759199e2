/**
 * The house plan as rules (ARCHITECTURE.md): the layers, their walls, no import circle, and a core
 * that names no API family. `npm test` runs `npm run lint:deps` (dependency-cruiser), which fails on
 * any rule broken.
 *
 * Families are folders, so the rules name none: a family is `src/families/<name>/`,
 * `suites/<name>/`, `suites/_harness/<name>/` and `reference-impl/<name>/`; `$1` below is the family
 * a module belongs to. The generic layers are `src/` outside `src/families/<name>/` (the
 * registration `src/families/index.ts` is the one file that names them all), `suites/_harness/*.ts`,
 * `reference-impl/{http,store,rules}/` and `reporters/`.
 */
const FAMILY_FOLDER = '^(src/families|suites/_harness|suites|reference-impl)/([^/_][^/]*)/';
const SERVER_CORE = '^reference-impl/(http|store|rules)/';
/** The one family that builds on another: the course player is a page of the learner API. */
const PLAYER_ON_LEARNER = ['^suites/_harness/learner/', '^reference-impl/learner/'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle anywhere (type-only imports count: they are the same coupling).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment:
        'No import circle between folders either (a folder counts with its subfolders): when one folder imports another, nothing in the other imports it back.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'base-builds-on-base',
      comment:
        "A folder's base/ (the profile's types and routes, the run model, the target's curl and token exchange, the OpenAPI document's types) is what the families build on: it imports only other base/ folders, never the lookups over the families.",
      severity: 'error',
      from: { path: '^src/[^/]+/base/' },
      to: { path: '^src/', pathNot: '^src/[^/]+/base/' },
    },
    {
      name: 'core-names-no-family',
      comment: 'The core (src/ outside the family folders, the reporters) iterates over the registered families and imports none.',
      severity: 'error',
      from: { path: '^(src|reporters)/', pathNot: '^src/families/([^/]+/|index[.]ts$)' },
      to: { path: '^src/families/[^/]+/' },
    },
    {
      name: 'harness-core-names-no-family',
      comment: "The harness's generic modules find the families' own by folder (import.meta.glob), never by import.",
      severity: 'error',
      from: { path: '^suites/_harness/[^/]+[.]ts$' },
      to: { path: '^(suites/_harness/[^/]+/|src/families/[^/]+/)' },
    },
    {
      name: 'server-core-names-no-family',
      comment: "The reference server's http/, store/ and rules/ know no family; reference-impl/index.ts mounts them.",
      severity: 'error',
      from: { path: SERVER_CORE },
      to: { path: '^reference-impl/', pathNot: SERVER_CORE },
    },
    {
      name: 'families-keep-apart',
      comment: "A family's folders import the core and their own family's folders, not another family's.",
      severity: 'error',
      from: { path: FAMILY_FOLDER, pathNot: ['^(suites/_harness|suites|reference-impl)/player/', SERVER_CORE] },
      to: { path: FAMILY_FOLDER, pathNot: ['^(src/families|suites/_harness|suites|reference-impl)/$2/', SERVER_CORE] },
    },
    {
      name: 'player-builds-on-learner-only',
      comment: 'The course player is a page of the learner API: it may use that family, and no other.',
      severity: 'error',
      from: { path: '^(suites/_harness|suites|reference-impl)/player/' },
      to: { path: FAMILY_FOLDER, pathNot: ['^(src/families|suites/_harness|suites|reference-impl)/player/', SERVER_CORE, ...PLAYER_ON_LEARNER] },
    },
    {
      name: 'families-register-not-look-up',
      comment: 'A family folder never imports the registration or the lookups over it (they import the families).',
      severity: 'error',
      from: { path: '^src/families/[^/]+/' },
      to: { path: '^src/(families/(index|registry)[.]ts|profile/(index|schema|secrets)[.]ts|target/secrets[.]ts)$' },
    },
    {
      name: 'server-is-independent',
      comment: 'reference-impl/ is an independent reading of the specification: it imports nothing of the suite.',
      severity: 'error',
      from: { path: '^reference-impl/' },
      to: { path: '^(src|suites|contracts|reporters|tests|fixtures|bench)/' },
    },
    {
      name: 'checks-go-through-the-harness',
      comment: 'Suites (*.check.ts) import only suites/_harness/; they reach the server over HTTP.',
      severity: 'error',
      from: { path: '^suites/', pathNot: '^suites/_harness/' },
      to: { path: '^(src|reference-impl|reporters|tests|contracts)/' },
    },
    {
      name: 'harness-imports-its-part-of-src',
      comment:
        'The harness may import of src/ the profile, credentials, families, small helpers, the run model and the browser; never the runner or the command line.',
      severity: 'error',
      from: { path: '^suites/_harness/' },
      to: {
        path: '^src/',
        pathNot: '^src/(profile|target|families|util|openapi/base/|browser/chromium[.]ts|runner/(base/|select[.]ts))',
      },
    },
    {
      name: 'what-the-harness-reaches-stays-inside',
      comment: 'What the harness may import of src/ never reaches the runner, the command line, the server or the reporters.',
      severity: 'error',
      from: { path: '^src/(profile|target|families|util|browser)/' },
      to: { path: '^(reference-impl|suites|reporters)/|^src/(cli/|runner/(run|compare|cleanup|bundled|baseline|progress)[.]ts)' },
    },
    {
      name: 'harness-never-the-server',
      severity: 'error',
      from: { path: '^suites/' },
      to: { path: '^(reference-impl|reporters)/' },
    },
    {
      name: 'src-never-the-suites',
      comment: 'The runner starts the suites in a worker (their bundle) and hands them their configuration there; it imports none of them.',
      severity: 'error',
      from: { path: '^(src|reporters)/' },
      to: { path: '^suites/' },
    },
    {
      name: 'reporters-know-the-run-model',
      comment: 'The reporters read the run model (src/runner/base/model.ts), not vitest or HTTP.',
      severity: 'error',
      from: { path: '^reporters/' },
      to: { path: '^(src|suites|reference-impl)/', pathNot: '^src/runner/base/model[.]ts$' },
    },
    {
      name: 'vitest-tests-lp-conformance-only',
      comment: 'vitest runs the tests of lp-conformance (tests/); a run of the suites never loads it (src/runner/run.ts starts their worker).',
      severity: 'error',
      from: { path: '^(src|suites|reference-impl)/' },
      to: { path: 'node_modules/vitest/' },
    },
    {
      name: 'reporters-no-vitest-or-http',
      severity: 'error',
      from: { path: '^reporters/' },
      to: { path: 'node_modules/(vitest|undici|fastify)/' },
    },
  ],
  options: {
    includeOnly: { path: ['^src/', '^suites/', '^reference-impl/', '^reporters/', 'node_modules/(vitest|undici|fastify)/'] },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
