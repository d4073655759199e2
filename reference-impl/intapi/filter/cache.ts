import type { FieldSchema } from '../../rules/fields.js';
import { compileFilter } from './compile.js';
import { parseFilter } from './parser.js';
import { type FilterPlan, planFilter } from './plan.js';
import type { FilterSemantics, Predicate } from './semantics.js';

/** A `_filter` bound to a collection: the record predicate and its index-answerable conjuncts. */
export interface CompiledFilter<R> extends FilterPlan<R> {
  readonly predicate: Predicate<R>;
}

/** Compiled filters kept per collection schema and semantics, by expression text. */
const MAX_ENTRIES = 512;
const caches = new WeakMap<object, WeakMap<object, Map<string, unknown>>>();

/**
 * Parses and compiles `text` (throws FilterError as parseFilter/compileFilter do), reusing the
 * result of an earlier call with the same text, schema and semantics. Only successes are kept;
 * the least recently used entry goes first when the cache is full.
 */
export function compileFilterCached<R>(text: string, schema: FieldSchema<R>, semantics: FilterSemantics): CompiledFilter<R> {
  let bySemantics = caches.get(schema);
  if (bySemantics === undefined) caches.set(schema, (bySemantics = new WeakMap()));
  let byText = bySemantics.get(semantics);
  if (byText === undefined) bySemantics.set(semantics, (byText = new Map()));
  const hit = byText.get(text) as CompiledFilter<R> | undefined;
  if (hit !== undefined) {
    byText.delete(text);
    byText.set(text, hit);
    return hit;
  }
  const node = parseFilter(text);
  const compiled: CompiledFilter<R> = { predicate: compileFilter(node, schema, semantics), ...planFilter(node, schema, semantics) };
  byText.set(text, compiled);
  if (byText.size > MAX_ENTRIES) {
    const oldest = byText.keys().next().value;
    if (oldest !== undefined) byText.delete(oldest);
  }
  return compiled;
}
