// A control that fails in CI must be understood from its log alone: the assertion message names each
// offending check with its failure (cause, request, expected, received), as controls-run.mjs reports it.
import { describe, expect, test } from 'vitest';
import { failuresMessage, type Found } from '../support/controls.js';

const found: Found = {
  skipped: [],
  checks: 3,
  requests: 40,
  failed: [
    {
      id: 'intapi.v2.submissions.create.body-too-large',
      expected: 'an HTTP answer the check can judge',
      received: 'the connection was closed mid-exchange (ECONNRESET)',
      cause: 'transport',
      operation: 'POST http://127.0.0.1:40001/submissions',
    },
    { id: 'intapi.v2.questions.create.status', expected: 'status 201', received: 'status 200\nbody: {"id":"x"}' },
  ],
};

describe('failuresMessage', () => {
  test("a sweep failure names the check, its cause and request, and the check's expected and received", () => {
    const message = failuresMessage(
      'intapi.create-question-200: checks that failed and should not have',
      ['intapi.v2.submissions.create.body-too-large'],
      found,
    );
    expect(message.split('\n')).toEqual([
      'intapi.create-question-200: checks that failed and should not have',
      '- intapi.v2.submissions.create.body-too-large: transport failure at POST http://127.0.0.1:40001/submissions',
      '    expected: an HTTP answer the check can judge',
      '    received: the connection was closed mid-exchange (ECONNRESET)',
    ]);
  });

  test('a detection failure says which mustFail check did not fail, and shows a verdict over several lines indented', () => {
    const message = failuresMessage(
      'f, seed 12: checks that did not fail with their own verdict',
      ['intapi.v2.questions.create.status', 'intapi.v2.other'],
      found,
    );
    expect(message.split('\n')).toEqual([
      'f, seed 12: checks that did not fail with their own verdict',
      '- intapi.v2.questions.create.status: its own verdict',
      '    expected: status 201',
      '    received: status 200',
      '      body: {"id":"x"}',
      '- intapi.v2.other: did not fail',
    ]);
  });

  test('bounds what it shows: 20 checks, 1000 characters of each text', () => {
    const many: Found = {
      skipped: [],
      checks: 30,
      requests: 30,
      failed: Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, expected: 'e', received: 'r'.repeat(5000) })),
    };
    const message = failuresMessage(
      'w',
      many.failed.map((f) => f.id),
      many,
    );
    expect(message).toContain('- and 10 more');
    expect(message).not.toContain('- c20:');
    expect(message).toContain(`${'r'.repeat(1000)}… (5000 characters)`);
    expect(message.length).toBeLessThan(25_000);
  });
});
