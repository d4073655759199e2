/**
 * The secret registry: the values of the credential variables a profile names, and the redactor
 * that replaces each value with `${VAR_NAME}` in everything the tool writes.
 */
import { FAMILIES } from '../families/registry.js';
import type { EnvRef, Profile } from './base/types.js';

export interface ResolvedSecrets {
  /** Variable name → value, for every credential variable of every family that is set. */
  values: Record<string, string>;
  /** Per family, its credential variables that are unset or empty: a family whose credentials a run
   * requires does not start without them; any other family's checks are skipped, naming them. */
  missingByFamily: Record<string, string[]>;
}

/** Variable name → value for each credential variable; unset or empty variables are missing. */
export function resolveSecrets(p: Profile, env: NodeJS.ProcessEnv = process.env): ResolvedSecrets {
  const values: Record<string, string> = {};
  const unset = (refs: readonly EnvRef[]): string[] => {
    const names: string[] = [];
    for (const { env: name } of refs) {
      const value = env[name];
      if (value !== undefined && value !== '') values[name] = value;
      else if (!names.includes(name)) names.push(name);
    }
    return names;
  };
  const missingByFamily = Object.fromEntries(FAMILIES.flatMap((f) => (f.auth ? [[f.name, unset(f.auth.refs(p))]] : [])));
  return { missingByFamily, values };
}

/** The forms in which a value can appear in what the tool writes: as is, URL-encoded (path,
 * query, form body) and escaped inside a JSON string (request bodies in curl lines). */
function formsOf(value: string): string[] {
  const forms = [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)];
  return [...new Set(forms)];
}

interface Span {
  start: number;
  end: number;
  name: string;
}

/**
 * A function replacing every occurrence of each secret value (in each of its forms) with
 * `${VAR_NAME}`. Occurrences are found in the original text, so a placeholder is never rewritten.
 * Overlapping occurrences merge into one replaced region: a value inside a longer one shows only
 * the longer one's name; two values that overlap partially show both names, so no fragment of
 * either is left in clear.
 */
export function redactor(secrets: Record<string, string>): (text: string) => string {
  const forms = Object.entries(secrets)
    .filter(([, value]) => value !== '')
    .flatMap(([name, value]) => formsOf(value).map((form) => ({ name, form })));
  if (forms.length === 0) return (text) => text;

  return (text) => {
    const spans: Span[] = [];
    for (const { name, form } of forms) {
      for (let i = text.indexOf(form); i !== -1; i = text.indexOf(form, i + 1)) spans.push({ start: i, end: i + form.length, name });
    }
    if (spans.length === 0) return text;
    // By start, longest first: the first span of a region is the longest one starting there.
    spans.sort((a, b) => a.start - b.start || b.end - a.end);
    let out = '';
    let pos = 0;
    let i = 0;
    while (i < spans.length) {
      const first = spans[i++] as Span;
      let end = first.end;
      const names = [first.name];
      for (let next = spans[i]; next !== undefined && next.start < end; next = spans[++i]) {
        // A span inside the region adds nothing; one reaching beyond it extends the region.
        if (next.end > end) {
          end = next.end;
          if (!names.includes(next.name)) names.push(next.name);
        }
      }
      out += text.slice(pos, first.start) + names.map((name) => `\${${name}}`).join('');
      pos = end;
    }
    return out + text.slice(pos);
  };
}
