import { createHash, randomBytes } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../rules/json.js';
import type { ScimBehaviour } from './behaviour.js';
import type { ScimContext } from './context.js';
import { ScimError } from './errors.js';
import type { ScimRecord } from './store.js';

/**
 * Resource versions (rfc7644#section-3.14), served when ScimBehaviour.etag.supported: a weak ETag
 * derived from what the resource holds and when it was last modified, so it changes on every
 * modification and only then; the same value in `meta.version` (rfc7643#section-3.1); If-Match on
 * PUT, PATCH and DELETE (412 when it names another version, RFC 9110 §13.1.1) and If-None-Match on
 * GET (304 when it names the current one, RFC 9110 §13.1.2). Weak comparison: `W/` is ignored.
 */
export function etagOf(record: ScimRecord, b: ScimBehaviour): string {
  const basis =
    b.etag.changes === 'never'
      ? `${record.id}|${record.created}`
      : b.etag.changes === 'every-read'
        ? randomBytes(8).toString('hex')
        : `${record.id}|${record.lastModified}|${JSON.stringify(record.data)}`;
  return `W/"${createHash('sha256').update(basis).digest('hex').slice(0, 16)}"`;
}

const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/** Whether an If-Match / If-None-Match value (`*`, or a list of entity tags) names `tag`. */
function names(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => opaque(t) === opaque(tag));
}

/** The representation with `meta.version` and the answer's ETag header; the representation alone when versions are off. */
export function versioned(view: JsonObject, record: ScimRecord, b: ScimBehaviour): { view: JsonObject; headers: Record<string, string> } {
  if (!b.etag.supported) return { view, headers: {} };
  const tag = etagOf(record, b);
  if (isJsonObject(view.meta)) view.meta = { ...view.meta, version: b.etag.metaVersion === 'header' ? tag : opaque(tag) };
  return { view, headers: b.etag.header === 'sent' ? { etag: tag } : {} };
}

/** If-Match of a write: 412 Precondition Failed when it names another version than the record's. */
export function checkIfMatch(context: ScimContext, record: ScimRecord, b: ScimBehaviour): void {
  if (!b.etag.supported || context.ifMatch === undefined || b.etag.ifMatch === 'ignored') return;
  if (b.etag.ifMatch === 'always-fails' || !names(context.ifMatch, etagOf(record, b))) {
    throw new ScimError(412, 'Failed to update: the resource has changed on the server (If-Match names another version).');
  }
}

/** If-None-Match of a GET: the current version's tag when it names it (the answer is then 304), else undefined. */
export function notModified(context: ScimContext, record: ScimRecord, b: ScimBehaviour): string | undefined {
  if (!b.etag.supported || context.ifNoneMatch === undefined || b.etag.ifNoneMatch === 'ignored') return undefined;
  const tag = etagOf(record, b);
  return names(context.ifNoneMatch, tag) ? tag : undefined;
}
