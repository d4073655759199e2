// The suite's own SCIM filter language: parser, printer, evaluator and generators
// (RFC 7644 section 3.4.2.2 "Filtering" with ABNF Figure 1, PATCH paths of section 3.5.2;
// RFC 7643 sections 2.2-2.4 for attribute characteristics, types and multi-valued attributes).
//
// A check judges a server's `filter` answers with this module. It is the second, independent
// reading of the RFC beside the reference server's: it must never share code with reference-impl/
// (the walls test), so that a wrong server and a wrong evaluator disagree visibly.
//
// API
//   parseFilter(text), parsePath(text)   -> { ok: true, value } | { ok: false, error: { message, position } }
//   print(filter), printPath(path)       canonical text; parse(print(tree)) gives back the tree
//   attrPath, compare, present, and, or, not, group, valuePath, stringValue, ...   constructors
//   scoped(prefix, filter)               `prefix and filter` (a filter confined to a run's resources; parentheses only around an `or`)
//   scopedText(prefix, text)             the same around a text that may not parse (invalid filters)
//   judgeFilter(filter, resources, schema)
//       'invalid'    every RFC-following server answers 400 invalidFilter;
//       'valid'      it answers 200 and resource i is in the answer iff verdicts[i] is true
//                    (false: out of it; 'ambiguous': either);
//       'may-reject' it may answer 400, or 200 as the verdicts say.
//   SCIM_USER, SCIM_GROUP                RFC 7643 sections 4.1, 4.3 (under SCIM_USER.extensions), 4.2
//   scimFilterOver(resources, schema)    fast-check filters that discriminate among the resources
//   invalidScimFilter()                  fast-check malformed filters ({ text, flaw })
//
// A check asserts only on unambiguous resources: a resource whose verdict is true must be in the
// answer, one whose verdict is false must not. The schema passed is what the target supports: an
// attribute outside it is 'may-reject' (section 3.4.2.2 lets a server refuse or ignore it).
//
// Semantics (RFC 7644 section 3.4.2.2 unless said)
// - Attribute names, schema URIs, operators and and/or/not match case-insensitively; precedence:
//   grouping, not, and, or. A bare name is a core or common attribute; extension attributes are
//   written under their URI (urn:...:enterprise:2.0:User:employeeNumber).
// - eq/ne/co/sw/ew/gt/ge/lt/le/pr as the RFC's table says; a multi-valued attribute matches when
//   any value matches; a complex multi-valued attribute without a sub-attribute compares its
//   `value` (`emails co "example.com"`); `attr[filter]` needs one value satisfying the whole filter.
// - Strings follow caseExact (RFC 7643 section 2.2): true compares exactly, false folds case.
// - dateTime eq and ordering compare instants (RFC 7643 section 2.3.5); booleans take only eq and
//   ne: gt/ge/lt/le on a boolean or binary attribute is 'invalid' (the RFC's SHALL).
// - pr: a value that is not null, not missing, not [] and not an object of empty values.
//
// Where RFC-following servers legitimately differ, the verdict is 'ambiguous' (never a guess),
// so that no check reports a false failure against a correct server:
// - a missing value: `eq`, `co`, ... on it are false, but `ne` on it, and `not (...)` over a
//   comparison with it, are ambiguous (two-valued servers say true, SQL-like ones "unknown");
//   likewise a value filter over an attribute with no values under `not`;
// - `ne` on a multi-valued attribute when "some value differs" and "no value equals" disagree;
// - case folding outside ASCII ("ß" and "SS", "İ" and "i", Turkish dotless ı), Unicode
//   normalisation (NFC/NFD), a trailing space (PAD SPACE collations): where any of these readings
//   changes the result;
// - ordering of strings unless both are ASCII and the first difference is between letters of one
//   case or digits, with only letters and digits from there (code-unit, code-point and collation
//   orders agree only there);
// - co/sw/ew on a dateTime, a number, a boolean or a binary value, and with an empty operand
//   (also 'may-reject');
// - dateTime: fractional seconds beyond milliseconds (truncated or rounded by servers), more than
//   nine digits, values without a time zone, leap seconds; a value as returned is taken as the
//   value the server compares (it returned it);
// - numbers with an exponent, "-0", more than 15 significant digits, a fraction for an integer
//   attribute (also 'may-reject');
// - `eq null`, a literal of another type than the attribute's, a complex attribute compared
//   without a sub-attribute, an attribute the schema does not describe, a value filter on an
//   attribute that is not complex and multi-valued, password (returned never): 'may-reject', and
//   ambiguous;
// - caseExact 'either' where RFC 7643 says both (schema.ts): references and binary values,
//   identifiers of other resources (members.value, groups.value, manager.value), schemas,
//   meta.location and meta.version;
// - a value of another shape than the schema says (a string for a boolean, an object for a
//   string), or two members of one object equal but for case: ambiguous.
//
// Grammar choices (parse.ts): false/null/true are lower-case JSON; one or more spaces where the
// ABNF has SP; `not (` with or without the space (erratum 7319); no valuePath inside a valuePath
// (erratum 4690); `$ref` is an attribute name; a syntax error is a result with a position, never
// a thrown exception.
export type {
  AttrPath,
  CompareNode,
  CompareOperator,
  CompValue,
  GroupNode,
  LogicNode,
  NotNode,
  PresentNode,
  ScimFilter,
  ScimPath,
  ValuePathNode,
} from './filter/ast.js';
export {
  and,
  attrPath,
  booleanValue,
  compare,
  COMPARE_OPERATORS,
  group,
  not,
  NULL_VALUE,
  numberValue,
  or,
  present,
  print,
  printAttrPath,
  printPath,
  printValue,
  scoped,
  scopedText,
  stringValue,
  valuePath,
} from './filter/ast.js';
export { parseFilter, parsePath, type ParseResult, type ScimSyntaxError } from './filter/parse.js';
export { judgeFilter, type FilterJudgement, type ScimResource, type Verdict } from './filter/evaluate.js';
export {
  ENTERPRISE_USER_URN,
  GROUP_SCHEMA_URN,
  SCIM_GROUP,
  SCIM_USER,
  USER_SCHEMA_URN,
  type AttributeDescription,
  type AttributeType,
  type ResourceSchema,
} from './filter/schema.js';
export { invalidScimFilter, scimFilterOver, type InvalidFilterFlaw, type InvalidScimFilter } from './filter/arbitrary.js';
