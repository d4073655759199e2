/** `_filter`: parse (grammar), then compile against a collection's fields (types and semantics). */
export type { FilterNode } from './ast.js';
export { compileFilter } from './compile.js';
export { FilterError, type FilterErrorKind } from './errors.js';
export { parseFilter } from './parser.js';
export { type Comparison, type FilterSemantics, type Predicate, SPEC_FILTER_SEMANTICS } from './semantics.js';
export { type CompiledFilter, compileFilterCached } from './cache.js';
export { type Constraint, type FilterPlan, planFilter } from './plan.js';
