/** GUIDs in the canonical hyphenated form (any version), compared case-insensitively. */
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isGuid(text: string): boolean {
  return GUID.test(text);
}
