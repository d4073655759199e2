// The command Stryker's command runner starts once per mutant (the mutant chosen by the variable
// __STRYKER_ACTIVE_MUTANT__, which the instrumented reference server reads): one seeded run of the
// family's checks against the bundled server, without a browser. Exit 0 means every check passed (the
// mutant survived); any other code means it was noticed (1: a check failed, 2: the server did not start).
// The arguments are passed on to `lp-conformance run` (the family's --only). SIGINT and SIGTERM are
// passed on to that run, so a stopped Stryker leaves no run behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'lpc-mutant-'));
const run = spawn(
  process.execPath,
  [
    'bin/lp-conformance.js',
    'run',
    ...process.argv.slice(2),
    '--skip',
    'player',
    '--seed',
    process.env.LPC_MUTATION_SEED ?? '1',
    '--runs',
    process.env.LPC_MUTATION_RUNS ?? '20',
    '--jobs',
    '1',
    '--concurrency',
    '2',
    '--no-progress',
    '--no-color',
    // A SHOULD check that fails has noticed the mutant too.
    '--strict',
    '--junit',
    join(dir, 'junit.xml'),
  ],
  // The bundled server sorts the seed's small lists outright; a bound of 3 walks every list and
  // group of ties of more than 3 records along its indexes, as a large list would, and still sorts
  // the smallest outright, so the mutants of both ways are judged.
  { stdio: ['ignore', 'inherit', 'inherit'], env: { LPC_REFERENCE_OUTRIGHT_SORT_MAX: '3', ...process.env } },
);
const forward = (signal) => run.kill(signal);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, forward);
run.on('error', () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(2);
});
run.on('exit', (code) => {
  rmSync(dir, { recursive: true, force: true });
  // Ended by a signal: not a pass, so the mutant does not count as survived.
  process.exit(code ?? 1);
});
