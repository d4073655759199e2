// Spec anchors must name something that exists: a heading of the specification or of
// public-facts.md (GitHub-style slug), a section of RFC 7643/7644, or the tool's own `lpc#harness`.
// They resolve against indexes shipped in fixtures/ (a clone alone has everything); one test compares
// the shipped index of headings with the documents themselves, when ../shared/spec (or
// $LPC_SPEC_DIR) is there, and is skipped, saying so, when it is not.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { INVARIANTS } from '../../src/profile/index.js';
import {
  ANCHOR_INDEX_DIR,
  anchorIndexText,
  anchorLiterals,
  headingSlugs,
  loadAnchorTargets,
  resolves,
  sentenceIndexText,
  SPEC_DIR,
  SPEC_DOCUMENTS,
  type AnchorTargets,
} from '../support/anchors.js';
import { runCli } from '../support/cli.js';

let loaded: AnchorTargets | undefined;
/** The shipped indexes, read at the first test that resolves an anchor (the comparison below needs none). */
const targets = (): AnchorTargets => (loaded ??= loadAnchorTargets());

describe('the anchor resolver', () => {
  test('fails loudly when a shipped index is missing', () => {
    expect(() => loadAnchorTargets(join(ANCHOR_INDEX_DIR, 'no-such-dir'))).toThrow(/learning-platform-apis\.anchors\.txt is missing/);
  });

  test('slugs headings as GitHub does: punctuation dropped, duplicates numbered, fenced code ignored', () => {
    const slugs = headingSlugs(`# Title\n## Integration API: list ('list')\n\`\`\`\n# not a heading\n\`\`\`\n## Learner API\n### Learner API\n`);
    expect([...slugs]).toEqual(['title', 'integration-api-list-list', 'learner-api', 'learner-api-1']);
  });

  test('resolves what exists and nothing else', () => {
    expect(resolves('spec#integration-api-submission-v2', targets())).toBe(true);
    expect(resolves('public-facts#errors', targets())).toBe(true);
    expect(resolves('rfc7644#section-3.4.2.4', targets())).toBe(true);
    expect(resolves('rfc7643#section-2.5', targets())).toBe(true);
    expect(resolves('lpc#harness', targets())).toBe(true);
    expect(resolves('spec#no-such-heading', targets())).toBe(false);
    expect(resolves('spec#Errors', targets())).toBe(false);
    expect(resolves('public-facts#integration-api-submission-v2', targets())).toBe(false);
    expect(resolves('rfc7644#section-3.4.2.9', targets())).toBe(false);
    expect(resolves('rfc7644#section-', targets())).toBe(false);
    expect(resolves('rfc7645#section-1', targets())).toBe(false);
    expect(resolves('lpc#other', targets())).toBe(false);
    expect(resolves('errors', targets())).toBe(false);
  });
});

describe('every anchor resolves', () => {
  test('the anchor of every listed check (lp-conformance run --list)', async () => {
    const { code, stdout, stderr } = await runCli(['run', '--list']);
    expect(code, stderr).toBe(0);
    const checks = stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const [id = '', , anchor = ''] = l.trim().split(/\s+/);
        return { id, anchor };
      });
    expect(checks.length).toBeGreaterThan(300);
    expect(checks.map((c) => c.id)).toEqual(expect.arrayContaining(INVARIANTS.map((i) => i.id)));
    expect(checks.filter((c) => !resolves(c.anchor, targets())).map((c) => `${c.id}: ${c.anchor}`)).toEqual([]);
  });

  test('the anchor of every invariant', () => {
    expect(INVARIANTS.filter((i) => !resolves(i.spec, targets())).map((i) => `${i.id}: ${i.spec}`)).toEqual([]);
  });

  test('every anchor literal in suites/ and src/', () => {
    const literals = anchorLiterals(['suites', 'src']);
    expect(literals.length).toBeGreaterThan(20);
    expect(literals.filter((l) => !resolves(l.anchor, targets())).map((l) => `${l.file}:${l.line}: ${l.anchor}`)).toEqual([]);
  });
});

describe('the shipped index of headings', () => {
  // The one test that reads outside the repository, and only when the documents are there: a clone
  // alone has no ../shared/spec. LPC_SPEC_DIR names the folder; when it is set, the folder must exist.
  const absent = !process.env.LPC_SPEC_DIR && !existsSync(SPEC_DIR);
  test('fixtures/spec/*.anchors.txt and *.sentences.json are the headings and sentences of the documents in ../shared/spec or $LPC_SPEC_DIR (skipped when neither is there)', async ({
    skip,
  }) => {
    skip(absent, `no ${SPEC_DIR} beside the clone: the shipped indexes are not compared (LPC_SPEC_DIR=<folder> compares them)`);
    for (const document of Object.values(SPEC_DOCUMENTS)) {
      const markdown = readFileSync(join(SPEC_DIR, `${document}.md`), 'utf8');
      await expect(anchorIndexText(document, markdown), document).toMatchFileSnapshot(join(ANCHOR_INDEX_DIR, `${document}.anchors.txt`));
      await expect(sentenceIndexText(document, markdown), document).toMatchFileSnapshot(join(ANCHOR_INDEX_DIR, `${document}.sentences.json`));
    }
  });
});
