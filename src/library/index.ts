/**
 * The package's main entry (`import { run } from 'lp-conformance'`): the conformance run as a
 * function (run.ts). The bundled reference server as a fixture is the `lp-conformance/reference-server`
 * entry (reference-server.ts). docs/library.md is the reference of both.
 */
export { run, RunError, type FaultName, type ProfileDocument, type ReportPaths, type RunOptions, type RunReport, type VariantName } from './run.js';
export type { MistakeKind } from '../cli/mistakes.js';
export type { CheckResult, Level, RunResult } from '../runner/base/model.js';
