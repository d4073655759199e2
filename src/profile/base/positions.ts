/**
 * Where a field of a profile is in its YAML text: the line and column of its key (of the nearest
 * mapping that holds it, when it is missing), from the `yaml` package's node ranges and LineCounter,
 * so that an error names `file:line:column` as editors and terminals link them.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

/** `operations["submissions.update"].path` → `['operations', 'submissions.update', 'path']`. */
export function segmentsOfField(field: string): string[] {
  return [...field.matchAll(/\.?([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)].map((m) => m[1] ?? m[2] ?? (JSON.parse(m[3] ?? '""') as string));
}

/** The 1-based line and column of the field at `segments` in `text`; undefined when the text has no mapping there. */
export function positionOf(text: string, segments: readonly string[]): { line: number; col: number } | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  let node: unknown = doc.contents;
  let offset: number | undefined;
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (!pair) break;
      offset = isScalar(pair.key) ? pair.key.range?.[0] : offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item: unknown = node.items[Number(segment)];
      if (!item) break;
      offset = (item as { range?: [number, number, number] }).range?.[0] ?? offset;
      node = item;
    } else break;
  }
  return offset === undefined ? undefined : lineCounter.linePos(offset);
}
