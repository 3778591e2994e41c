/**
 * Group keys: the values of a row's grouping expressions encoded as one string, so a JS Map (and the
 * state store) can look groups up. The encoding is injective for values of one schema: strings are
 * escaped, and every kind of value has a distinct form.
 */

const SEPARATOR = '\u0001';
const NULL_TOKEN = '\u0000';

/** Encodes a list of grouping values as a map key. */
export function encodeKey(values: readonly unknown[]): string {
  if (values.length === 1) return encodeValue(values[0]);
  let out = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += SEPARATOR;
    out += encodeValue(values[i]);
  }
  return out;
}

function encodeValue(v: unknown): string {
  if (v === null || v === undefined) return NULL_TOKEN;
  switch (typeof v) {
    case 'string':
      return needsEscape(v) ? `\u0002${JSON.stringify(v)}` : v;
    case 'number':
      return Object.is(v, -0) ? '0' : String(v);
    case 'boolean':
      return v ? '\u0003t' : '\u0003f';
    default:
      return `\u0004${structuredKey(v)}`;
  }
}

/** Nested values (window structs, arrays, maps, binary) are rare as keys; a JSON form is good enough. */
function structuredKey(v: unknown): string {
  if (v instanceof Uint8Array) return `b${Array.from(v).join(',')}`;
  if (v instanceof Map)
    return `m${JSON.stringify([...v].map(([k, x]) => [encodeValue(k), encodeValue(x)]))}`;
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i > 0 ? SEPARATOR : '') + encodeValue(v[i]);
    return `${out}]`;
  }
  return JSON.stringify(v);
}

function needsEscape(s: string): boolean {
  if (s.length === 0) return false;
  const c = s.charCodeAt(0);
  return c <= 4 || s.includes(SEPARATOR) || s.includes('[') || s.includes(']');
}
