// `npm run docs`: writes the pages of docs/ that are made from the code (src/docs/index.ts lists
// them), from the compiled sources (`npm run build` first). `--check` writes nothing and exits 1
// naming each page that differs from what the code gives (tests/repo/docs.test.ts does the same in
// `npm test`).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { GENERATED_PAGES } = await import(join(root, 'dist', 'src', 'docs', 'index.js'));
const check = process.argv.includes('--check');
let stale = 0;
for (const page of GENERATED_PAGES) {
  const text = `${await page.render()}\n`;
  const file = join(root, page.path);
  let old;
  try {
    old = readFileSync(file, 'utf8');
  } catch {
    old = undefined;
  }
  if (old === text) continue;
  if (check) {
    stale++;
    process.stderr.write(`${page.path}: differs from what the code gives (npm run docs)\n`);
  } else {
    writeFileSync(file, text);
    process.stdout.write(`wrote ${page.path}\n`);
  }
}
process.exitCode = stale ? 1 : 0;
