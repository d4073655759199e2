// `run --check-profile`: every record id of the profile is read once before any check, and an id the
// target does not have stops the run (exit 2) with one line naming its field and the id, instead of a
// wall of 404 failures. Against `serve --id-seed 7` no id of the bundled profile exists.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SANDBOX } from '../../reference-impl/index.js';
import { referenceProfileWith, runCli, serveCli } from '../support/cli.js';

const ENV = {
  LPC_API_KEY: SANDBOX.intapi.apiKey,
  LPC_USERNAME: SANDBOX.intapi.username,
  LPC_PASSWORD: SANDBOX.intapi.password,
  LPC_PRIVATE_KEY: SANDBOX.intapi.privateKey,
  LPC_LEARNER_USERNAME: SANDBOX.learner.username,
  LPC_LEARNER_PASSWORD: SANDBOX.learner.password,
};
const TEMPLATE = '00000000-0000-4000-8000-000000000201';
const WRONG = '7a1e0b4d-3c2f-4e8a-9b6d-5f4c3b2a1908';
const ONE_CHECK = ['--only', 'intapi.v2.templates.list.status-200', '--no-progress'];

describe('run --check-profile', () => {
  const servers: { url: string; stop: () => Promise<void> }[] = [];
  let fixed: string;
  let derived: string;
  beforeAll(async () => {
    const [a, b] = await Promise.all([serveCli([]), serveCli(['--id-seed', '7'])]);
    servers.push(a, b);
    fixed = a.url;
    derived = b.url;
  });
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  test('one wrong id: exit 2 before any check, one line naming the field and the id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-check-profile-'));
    const profile = referenceProfileWith(dir, 'wrong.yaml', `templateId: ${TEMPLATE}`, `templateId: ${WRONG}`);
    const r = await runCli(['run', '--target', fixed, '--profile', profile, '--check-profile', ...ONE_CHECK, '--junit', join(dir, 'junit.xml')], { env: ENV });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `lp-conformance: profile ${profile}: records.templateId ${WRONG}: no such record at the target (GET /templates/${WRONG} answered 404)`,
    ]);
    expect(r.stdout).not.toMatch(/checks,/);
  });

  test('every id right: the run goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-check-profile-'));
    const profile = referenceProfileWith(dir, 'right.yaml', 'name: reference', 'name: right');
    const r = await runCli(['run', '--target', fixed, '--profile', profile, '--check-profile', ...ONE_CHECK, '--junit', join(dir, 'junit.xml')], { env: ENV });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1 checks?, 1 passed/);
  });

  test('against serve --id-seed 7 the bundled profile names no record that exists: one line per id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpc-check-profile-'));
    const args = [
      'run',
      '--target',
      derived,
      '--profile',
      'fixtures/profiles/reference.yaml',
      '--check-profile',
      ...ONE_CHECK,
      '--only',
      'player.page-token-401',
    ];
    const r = await runCli([...args, '--junit', join(dir, 'junit.xml')], { env: ENV });
    expect(r.code).toBe(2);
    const fields = r.stderr
      .trim()
      .split('\n')
      .map((line) => /: (records\.\S+) [0-9a-f-]{36}: no such record at the target/.exec(line)?.[1]);
    expect(fields).toEqual([
      'records.userId',
      'records.otherUserId',
      'records.courseId',
      'records.enrollment.userId',
      'records.enrollment.courseId',
      'records.templateId',
      'records.managerId',
      'records.learner.userId',
      'records.multiSessionCourse.courseId',
      'records.deletedCourseEnrollment.userId',
      'records.ruleEnrollment.courseId',
      'records.playerCourseId',
    ]);
  });
});
