import { isJsonObject, type JsonObject, type JsonValue } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import { badRequest } from './errors.js';
import { idpBooleans, valueFromFilter } from './clients.js';
import { compileValueFilter, type FilterNode, parsePatchPath, type PatchPath } from './filter.js';
import { attributeValue } from './resources.js';
import { type Attr, PATCH_URN, type ResolvedPath, type ResourceSchema, resolvePath } from './schema.js';

/**
 * PATCH (rfc7644#section-3.5.2): `add`, `replace`, `remove` (names case-insensitive: identity
 * providers send `Replace`), paths in filter syntax with value filters and a sub-attribute after
 * them, no-path add/replace with an object value. The operations apply in order to a copy; the
 * caller stores the result only when every operation succeeded (atomic, rfc7644#section-3.5.2).
 */
export type PatchOpName = 'add' | 'replace' | 'remove';

/** A path with a value filter: the parsed path, its text (for error details) and its filter. */
interface FilteredPath {
  readonly path: PatchPath;
  readonly text: string;
  readonly filter: FilterNode;
}

/**
 * Where an attribute of a path lives: the resource, or the extension object of its URN (made for an
 * add or replace when absent); `finish` drops an extension object the operation left empty.
 */
function containerOf(data: JsonObject, op: PatchOpName, urn: string | undefined): { container: JsonObject; finish: () => void } {
  if (urn === undefined) return { container: data, finish: () => undefined };
  const ext = data[urn];
  let container: JsonObject;
  if (isJsonObject(ext)) container = ext;
  else {
    container = {};
    if (op !== 'remove') data[urn] = container;
  }
  return {
    container,
    finish: () => {
      if (Object.keys(container).length === 0) delete data[urn];
    },
  };
}

export interface PatchOperation {
  readonly op: PatchOpName;
  readonly path: string | undefined;
  readonly value: JsonValue | undefined;
}

/** The request body's operations, checked (400 invalidSyntax / invalidValue). */
export function readPatchRequest(body: unknown, b: ScimBehaviour): PatchOperation[] {
  if (!isJsonObject(body)) throw badRequest('invalidSyntax', 'The body must be a JSON object.');
  const schemas = body.schemas;
  if (
    b.patch.schemas === 'required' &&
    (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === PATCH_URN.toLowerCase()))
  ) {
    throw badRequest('invalidSyntax', `schemas must contain ${PATCH_URN}.`);
  }
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || (operations.length === 0 && b.patch.emptyOperations === 'reject'))
    throw badRequest('invalidSyntax', 'Operations must be a non-empty array.');
  const read = operations.map((o, i): PatchOperation | undefined => {
    if (!isJsonObject(o)) {
      if (b.patch.nonObjectOperation === 'server-error') throw new TypeError(`Operations[${i}] is not an object`);
      throw badRequest('invalidSyntax', `Operations[${i}] must be an object.`);
    }
    const raw = o.op;
    const op = typeof raw === 'string' ? (b.patch.opCase === 'insensitive' ? raw.toLowerCase() : raw) : undefined;
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      if (b.patch.unknownOp === 'skipped') return undefined;
      throw badRequest('invalidSyntax', `Operations[${i}].op must be add, replace or remove.`);
    }
    if (o.path !== undefined && o.path !== null && typeof o.path !== 'string' && b.patch.pathType === 'checked')
      throw badRequest('invalidPath', `Operations[${i}].path must be a string.`);
    const path = typeof o.path === 'string' ? o.path : undefined;
    if (op !== 'remove' && o.value === undefined) {
      if (b.patch.value === 'required') throw badRequest('invalidValue', `Operations[${i}] (${op}) needs a value.`);
      // A lenient server skips an add or replace without a value: it changes nothing it was not asked to.
      if (b.patch.value === 'ignored') return undefined;
    }
    return { op, path, value: o.value };
  });
  return read.filter((o) => o !== undefined);
}

const same = (a: JsonValue, b: JsonValue): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Makes `chosen` the only primary value when it is primary (rfc7643#section-2.4); `always`: whatever it is. */
function singlePrimary(list: JsonValue[], chosen: ReadonlySet<JsonValue>, always: boolean): void {
  if (!always && ![...chosen].some((v) => isJsonObject(v) && v.primary === true)) return;
  for (const v of list) if (!chosen.has(v) && isJsonObject(v) && v.primary) v.primary = false;
}

export class PatchApplier {
  constructor(
    private readonly schema: ResourceSchema,
    private readonly b: ScimBehaviour,
    /** The id of the resource patched (a no-path value may carry it, Okta). */
    private readonly self?: string,
  ) {}

  /** Applies one operation to `data` (mutated). */
  apply(data: JsonObject, operation: PatchOperation): void {
    const { op, path, value } = operation;
    if (path === undefined || path.trim() === '') {
      if (op === 'remove') {
        if (this.b.patch.removeWithoutPath === 'no-target') throw badRequest('noTarget', 'remove needs a path.');
        return;
      }
      if (this.b.patch.noPath === 'rejected') throw badRequest('invalidPath', `${op} needs a path.`);
      if (!isJsonObject(value)) throw badRequest('invalidValue', `${op} without a path needs an object value.`);
      for (const [key, v] of Object.entries(value)) this.noPathMember(data, op, key, v);
      return;
    }
    this.applyPath(data, op, path, value);
  }

  /** One attribute of a no-path add/replace value: by its name, an extension's object by its attributes. */
  private noPathMember(data: JsonObject, op: PatchOpName, key: string, v: JsonValue): void {
    const name = key.toLowerCase();
    if (name === 'schemas') return;
    if (name === 'id' && ((v === this.self && this.b.idp.ownIdInValue === 'ignored') || this.b.patch.noPathId === 'ignored')) return;
    const ext = this.schema.extensions.get(name);
    // Entra ID names attributes by their paths here (`name.givenName`, an extension attribute's URN form).
    if (this.b.idp.dottedNames === 'rejected' && ext === undefined && (key.includes('.') || name.startsWith('urn:')))
      throw badRequest('invalidPath', `'${key}' is not an attribute name.`);
    if (ext === undefined && isJsonObject(v) && this.b.patch.noPathComplex === 'server-error') throw new TypeError(`no-path ${key} holds an object`);
    if (ext !== undefined && isJsonObject(v)) {
      if (this.b.patch.noPathExtension === 'applied') for (const [k, sv] of Object.entries(v)) this.applyPath(data, op, `${ext.urn}:${k}`, sv);
    } else {
      this.applyPath(data, op, key, v);
    }
  }

  private singlePrimary(list: JsonValue[], chosen: ReadonlySet<JsonValue>): void {
    if (this.b.patch.primary === 'clears-others') singlePrimary(list, chosen, this.b.patch.primaryClearedBy === 'any-value');
  }

  private mutability(detail: string): void {
    if (this.b.patch.mutability === 'checked') throw badRequest('mutability', detail);
  }

  private applyPath(data: JsonObject, op: PatchOpName, pathText: string, sent: JsonValue | undefined): void {
    const extension = this.schema.extensions.get(pathText.trim().toLowerCase());
    if (extension !== undefined) {
      // The path names a whole extension: remove it, or add/replace its attributes one by one.
      if (op === 'remove') delete data[extension.urn];
      else if (!isJsonObject(sent)) throw badRequest('invalidValue', `${op} of ${extension.urn} needs an object value.`);
      else for (const [k, v] of Object.entries(sent)) this.applyPath(data, op, `${extension.urn}:${k}`, v);
      return;
    }
    const target = this.targetOf(pathText);
    if (target === undefined) return;
    const { path, resolved } = target;
    const { attr, urn } = resolved;
    const sub = path.filter === undefined ? resolved.sub : undefined;
    const value = this.b.idp.booleanStrings === 'true-false' ? idpBooleans(this.valueAttr(path, attr, sub), sent) : sent;
    if (attr.mutability === 'readOnly' || attr.name === 'schemas') {
      this.mutability(`${attr.name} is read-only.`);
      return;
    }
    const { container, finish } = containerOf(data, op, urn);
    if (path.filter === undefined) {
      if (sub === undefined) this.whole(container, op, attr, value);
      else this.subOfAll(container, op, attr, sub, value);
    } else this.filtered(container, op, attr, { path, text: pathText, filter: path.filter }, value);
    finish();
  }

  /** The attribute a path names, its form checked (400 invalidPath); undefined where the behaviour ignores a path it cannot take. */
  private targetOf(pathText: string): { path: PatchPath; resolved: ResolvedPath } | undefined {
    const path = parsePatchPath(pathText, this.b.filter);
    if (path === undefined) {
      if (this.b.patch.malformedPath === 'ignored') return undefined;
      throw badRequest('invalidPath', `'${pathText}' is not a valid path.`);
    }
    const resolved = resolvePath(this.schema, path.attrPath);
    if (resolved === undefined) {
      if (this.b.patch.unknownPath === 'ignored') return undefined;
      throw badRequest('invalidPath', `'${pathText}' names no attribute.`);
    }
    const { attr, urn } = resolved;
    if (urn !== undefined && resolved.sub !== undefined && this.b.patch.extensionSubPath === 'rejected')
      throw badRequest('invalidPath', `'${pathText}' is not a path this server takes.`);
    if (path.filter !== undefined && resolved.sub !== undefined) throw badRequest('invalidPath', `'${pathText}' filters a sub-attribute.`);
    if (path.filter !== undefined && attr.sub === undefined && this.b.patch.filterOnSimple === 'server-error')
      throw new TypeError(`${attr.name} has no sub-attributes`);
    return { path, resolved };
  }

  /** The attribute whose type the identity providers' string booleans are read as: the path's last. */
  private valueAttr(path: PatchPath, attr: Attr, sub: Attr | undefined): Attr {
    const after = path.subAfterFilter === undefined ? undefined : attr.sub?.get(path.subAfterFilter.toLowerCase());
    return sub ?? after ?? (path.filter === undefined ? attr : { ...attr, multiValued: false });
  }

  /** An operation on the values a value filter selects (`emails[type eq "work"]`, `….value`). */
  private filtered(container: JsonObject, op: PatchOpName, attr: Attr, path: FilteredPath, value: JsonValue | undefined): void {
    if (!attr.multiValued || attr.sub === undefined) throw badRequest('invalidPath', `'${path.path.attrPath}' is not a multi-valued complex attribute.`);
    let predicate: (v: JsonObject) => boolean;
    try {
      predicate = compileValueFilter(this.schema, path.filter, attr, this.b.filter);
    } catch {
      if (this.b.patch.invalidValueFilter === 'server-error') throw new TypeError(`the value filter of ${path.text} was not compiled`);
      throw badRequest('invalidPath', `The value filter of '${path.text}' is not valid.`);
    }
    if (this.b.patch.valueFilter === 'ignored') predicate = () => true;
    const list = Array.isArray(container[attr.name]) ? (container[attr.name] as JsonValue[]) : [];
    const matched = list.filter((v): v is JsonObject => isJsonObject(v) && predicate(v));
    const subName = path.path.subAfterFilter;
    const subAttr = subName === undefined ? undefined : attr.sub.get(subName.toLowerCase());
    const creates = matched.length === 0 ? this.b.idp.addUnmatched === 'creates' : this.b.patch.filteredAdd === 'appends';
    if (op === 'add' && creates && this.createUnmatched(container, attr, path, subAttr, { list, value })) return;
    if (matched.length === 0) throw badRequest('noTarget', `No value of ${attr.name} matches '${path.text}'.`);
    if (subName !== undefined && subAttr === undefined) throw badRequest('invalidPath', `${attr.name} has no sub-attribute '${subName}'.`);
    if (subAttr === undefined) this.writeMatched(container, op, attr, path.text, { list, matched }, value);
    else {
      if (subAttr.mutability === 'readOnly') {
        this.mutability(`${attr.name}.${subAttr.name} is read-only.`);
        return;
      }
      for (const v of matched) {
        if (op === 'remove' || value === null) delete v[subAttr.name];
        else v[subAttr.name] = attributeValue(subAttr, value ?? null, `${attr.name}.${subAttr.name}`) ?? null;
      }
      this.singlePrimary(list, new Set(matched));
    }
  }

  /** Entra ID: an add whose filter matches nothing creates the value the filter describes (`after`: the
   * sub-attribute after the filter, if any); the fault of patch.filteredAdd creates it when the filter
   * matches too. True when it did. */
  private createUnmatched(
    container: JsonObject,
    attr: Attr,
    path: FilteredPath,
    after: Attr | undefined,
    sent: { list: readonly JsonValue[]; value: JsonValue | undefined },
  ): boolean {
    const { list, value } = sent;
    const made = valueFromFilter(path.filter, after, value);
    const created = made === undefined ? undefined : attributeValue({ ...attr, multiValued: false }, made, attr.name);
    if (!isJsonObject(created)) return false;
    const next = [...list, created];
    this.singlePrimary(next, new Set([created]));
    container[attr.name] = next;
    return true;
  }

  /** remove of the matched values, or add/replace of each of them with the value sent (the others kept). */
  private writeMatched(
    container: JsonObject,
    op: PatchOpName,
    attr: Attr,
    pathText: string,
    values: { list: readonly JsonValue[]; matched: readonly JsonObject[] },
    value: JsonValue | undefined,
  ): void {
    const { list, matched } = values;
    if (op === 'remove') {
      const rest = list.filter((v) => !matched.includes(v as JsonObject));
      if (rest.length === 0) delete container[attr.name];
      else container[attr.name] = rest;
      return;
    }
    const replacement = attributeValue({ ...attr, multiValued: false }, value ?? null, attr.name);
    if (replacement === undefined && this.b.patch.filteredNull === 'ignored') return;
    if (!isJsonObject(replacement)) throw badRequest('invalidValue', `${op} of '${pathText}' needs an object value.`);
    const chosen = new Set<JsonValue>();
    container[attr.name] = list.map((v) => {
      if (!matched.includes(v as JsonObject) && this.b.patch.filteredWrite === 'matched') return v;
      const next = op === 'replace' ? { ...replacement } : { ...(v as JsonObject), ...replacement };
      chosen.add(next);
      return next;
    });
    this.singlePrimary(container[attr.name] as JsonValue[], chosen);
  }

  /** add / replace / remove of a whole attribute. */
  private whole(container: JsonObject, op: PatchOpName, attr: Attr, value: JsonValue | undefined): void {
    if (op === 'remove') {
      if (attr.required) {
        this.mutability(`${attr.name} is required.`);
        if (this.b.patch.mutability === 'checked') return;
      }
      const current = container[attr.name];
      if (attr.multiValued && Array.isArray(current) && Array.isArray(value) && value.length > 0 && this.b.idp.removeWithValue === 'listed') {
        // The legacy form: remove `members` with the values to remove (checked as values of the attribute first).
        const removing = attributeValue(attr, value);
        const keys = new Set((Array.isArray(removing) ? removing : []).map((v) => (isJsonObject(v) ? JSON.stringify(v.value) : JSON.stringify(v))));
        const rest = current.filter((v) => !keys.has(isJsonObject(v) ? JSON.stringify(v.value) : JSON.stringify(v)));
        if (rest.length === 0) delete container[attr.name];
        else container[attr.name] = rest;
        return;
      }
      if (attr.multiValued && this.b.patch.removeAllValues === 'kept') return;
      delete container[attr.name];
      return;
    }
    const read = attributeValue(attr, value ?? null);
    const v = attr.name === 'members' && op === 'add' && Array.isArray(read) && this.b.groups.addMembers === 'first-only' ? read.slice(0, 1) : read;
    if (v === undefined) {
      // A required attribute made unassigned is refused where every stored state is checked (400 invalidValue).
      if (!attr.required && this.b.patch.optionalNull === 'refused') throw badRequest('invalidValue', `${attr.name} takes no null.`);
      delete container[attr.name];
      return;
    }
    const current = container[attr.name];
    if (attr.multiValued && Array.isArray(v)) {
      const replaceAppends = this.b.patch.replaceMultiValued === 'appends' || (attr.name === 'members' && this.b.groups.replaceMembers === 'appends');
      const appends = op === 'add' || (op === 'replace' && replaceAppends);
      if (appends && Array.isArray(current) && this.b.patch.addMultiValued === 'appends') {
        const added = this.b.patch.addExisting === 'duplicated' ? v : v.filter((x) => !current.some((c) => same(c, x)));
        const list = [...current, ...added];
        this.singlePrimary(list, new Set(added));
        container[attr.name] = list;
      } else {
        container[attr.name] = v;
      }
      return;
    }
    if (attr.sub !== undefined && isJsonObject(v) && isJsonObject(current) && (op === 'add' || this.b.patch.complexReplace === 'merges')) {
      container[attr.name] = { ...current, ...v };
      return;
    }
    container[attr.name] = v;
  }

  /** A sub-attribute of a single complex attribute, or of every value of a multi-valued one. */
  private subOfAll(container: JsonObject, op: PatchOpName, attr: Attr, sub: Attr, value: JsonValue | undefined): void {
    if (sub.mutability === 'readOnly' && this.b.patch.readOnlySub === 'checked') {
      this.mutability(`${attr.name}.${sub.name} is read-only.`);
      return;
    }
    const current = container[attr.name];
    if (!attr.multiValued) {
      const obj = isJsonObject(current) ? { ...current } : {};
      if (op === 'remove' || value === null) delete obj[sub.name];
      else obj[sub.name] = attributeValue(sub, value ?? null, `${attr.name}.${sub.name}`) ?? null;
      if (Object.keys(obj).length === 0 && !attr.required) delete container[attr.name];
      else container[attr.name] = obj;
      return;
    }
    const list = Array.isArray(current) ? current : [];
    if (list.length === 0) {
      if (op === 'remove') return;
      throw badRequest('noTarget', `${attr.name} has no values to set ${sub.name} on.`);
    }
    for (const v of this.b.patch.multiValuedSub === 'first-only' ? list.slice(0, 1) : list) {
      if (!isJsonObject(v)) continue;
      if (op === 'remove' || value === null) delete v[sub.name];
      else v[sub.name] = attributeValue(sub, value ?? null, `${attr.name}.${sub.name}`) ?? null;
    }
  }
}
