/**
 * `lp-conformance merge [--junit FILE] [--json FILE] [--markdown FILE] [--html FILE] REPORT.json…`:
 * the shards' JSON reports of a sharded run (`run --shard I/N --json …`) become every report of one
 * run, written by the function a run writes its reports with, and the exit code that run's verdict
 * gives (src/runner/merge.ts says how). Shards that are not one plan's, each once, are exit 2 with one
 * line naming the shard.
 */
import { MergeError, mergeShards, readShardReport } from '../runner/merge.js';
import { checkOutputs, helpAsked, MERGE, parseCommand } from './args.js';
import { writeRunReports } from './reports.js';

export { MergeError };

export async function mergeCommand(argv: string[]): Promise<number> {
  const { values, help, positionals } = parseCommand(MERGE, argv);
  if (helpAsked(MERGE, help)) return 0;
  checkOutputs(MERGE, values, values.junit === undefined ? [['--junit', 'reports/junit.xml']] : []);
  if (positionals.length === 0) throw new MergeError('merge needs the JSON reports of every shard: lp-conformance merge shard-1.json shard-2.json …');
  const { result, strict } = mergeShards(positionals.map((file) => readShardReport(file)));
  const color = !values['no-color'] && process.stdout.isTTY === true && !process.env.NO_COLOR;
  process.stdout.write(`lp-conformance merge: ${result.shards?.length ?? 0} shards, ${result.checks.length} checks\n`);
  return writeRunReports(result, values, { strict, color, verbose: values.verbose === true });
}
