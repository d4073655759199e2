// What the profile says of the learner's data decides whether an unexercised learner check fails or
// is skipped: a learner with no completed sessions cannot show includeCompletedSessions at work, and
// a server that ignores the flag looks the same. With expectations.learner.completedSessions: present
// (the reference profile) that is a failure (the control learner.completed-sessions-never proves it);
// with either, the check is skipped, saying why.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { SANDBOX_CREDENTIALS, SANDBOX_LEARNERS } from '../../../reference-impl/index.js';
import type { RunResult } from '../../../src/runner/base/model.js';
import { profiledRunArgs, referenceProfileWith, runCli, serveCli } from '../../support/cli.js';

test('no completed session anywhere, and the profile says either: include-completed-superset is skipped with the reason', async () => {
  // A server that never lists completed sessions: what a learner without any would show.
  const { url, stop } = await serveCli(['--faults', 'learner.completed-sessions-never']);
  const dir = mkdtempSync(join(tmpdir(), 'lpc-learner-'));
  const profile = referenceProfileWith(dir, 'either.yaml', 'completedSessions: present', 'completedSessions: either');
  const json = join(dir, 'run.json');
  try {
    const r = await runCli(profiledRunArgs(url, profile, 'learner.sessions.include-completed-superset', dir), {
      // The learner API takes the Integration API's key too (public-facts), and the learner's log-in.
      env: { LPC_API_KEY: SANDBOX_CREDENTIALS.apiKey, LPC_LEARNER_USERNAME: SANDBOX_LEARNERS.a.username, LPC_LEARNER_PASSWORD: SANDBOX_LEARNERS.a.password },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const [check] = (JSON.parse(readFileSync(json, 'utf8')) as RunResult).checks;
    expect(check?.status).toBe('skipped');
    expect(check?.skipReason).toBe('not exercised: no list shows a completed session, and expectations.learner.completedSessions is either');
  } finally {
    await stop();
  }
});
