/** A page of docs/ made from the code (`npm run docs`), so that it cannot drift from it: the test
 * tests/catalogue/docs.test.ts fails when the committed file differs from what `render` gives. */
export interface GeneratedPage {
  /** The file, from the repository's root (`docs/cli.md`). */
  readonly path: string;
  readonly render: () => string | Promise<string>;
}

/** The first lines of every generated page: what it is made from and how to make it again. */
export const generatedNote = (source: string): string => `<!-- Generated from ${source} by \`npm run docs\`: edit the source, not this file. -->`;

/** `text` as a Markdown table cell: one line, pipes escaped. */
export const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** A Markdown table of `rows` under `head`. */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)];
}
