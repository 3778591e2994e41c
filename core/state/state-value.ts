/**
 * State values: plain data (null, booleans, numbers, strings, arrays, Sets, Maps, Uint8Arrays).
 * This module copies them (so a batch never mutates the version it was loaded from) and encodes them
 * as JSON with tags for the types JSON lacks, which is what the state files hold.
 */

/** A deep copy of a state value; Uint8Arrays are immutable by convention and shared. */
export function copyStateValue<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyStateValue) as T;
  if (v instanceof Set) return new Set([...v].map(copyStateValue)) as T;
  if (v instanceof Map)
    return new Map([...v].map(([k, x]) => [copyStateValue(k), copyStateValue(x)])) as T;
  return v;
}

/** Encodes a state value as JSON-able data: Sets, Maps, Uint8Arrays, non-finite numbers and -0 get tags. */
export function encodeStateValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') {
    // JSON has no NaN or Infinity, and writes -0 as 0 (a double's sign a min or max must keep).
    if (Object.is(v, -0)) return { $n: '-0' };
    return Number.isFinite(v) ? v : { $n: String(v) };
  }
  if (typeof v !== 'object') return v;
  if (Array.isArray(v)) return encodeArray(v);
  if (v instanceof Set) return { $set: [...v].map(encodeStateValue) };
  if (v instanceof Map)
    return { $map: [...v].map(([k, x]) => [encodeStateValue(k), encodeStateValue(x)]) };
  if (v instanceof Uint8Array) return { $bin: Buffer.from(v).toString('base64') };
  throw new TypeError(`Cannot encode state value of type ${v.constructor.name}.`);
}

/**
 * `encodeStateValue` of each element. Persisting a batch encodes every value it changed, most of
 * them arrays of numbers and strings (session bounds, aggregation buffers), so those elements are
 * passed on here without a call: a nonzero finite number or a string encodes as itself.
 */
function encodeArray(v: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    out[i] =
      typeof x === 'string' || (typeof x === 'number' && x !== 0 && Number.isFinite(x))
        ? x
        : encodeStateValue(x);
  }
  return out;
}

/**
 * `encodeStateValue(v)` for a value turned into JSON text at once: `v` itself when it is plain JSON
 * data already (arrays of rows and flags, numbers, strings), which encodes as itself, checked by a
 * walk that allocates nothing. Persisting a batch writes a line for every value it changed, most of
 * them plain, so they are not copied first; the text is the same either way. The result may share
 * `v`'s parts, so it is only for text made before `v` can change.
 */
export function encodeStateValueForText(v: unknown): unknown {
  return encodesAsItself(v) ? v : encodeStateValue(v);
}

/**
 * Whether `encodeStateValue(v)` is a value of the same JSON text as `v`: null, a boolean, a string,
 * a finite number other than -0, or an array of those (nested). Anything else needs a tag, or is
 * not state data and must reach `encodeStateValue` to be refused.
 */
function encodesAsItself(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    // nonzero finite numbers and strings, the common elements, without a call
    if (typeof x === 'string' || (typeof x === 'number' && x !== 0 && Number.isFinite(x))) continue;
    if (!encodesAsItself(x)) return false;
  }
  return true;
}

/** Reverses `encodeStateValue`. */
export function decodeStateValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(decodeStateValue);
  const tagged = v as Record<string, unknown>;
  if ('$n' in tagged) return Number(tagged.$n);
  if ('$set' in tagged) return new Set((tagged.$set as unknown[]).map(decodeStateValue));
  if ('$map' in tagged) {
    return new Map(
      (tagged.$map as [unknown, unknown][]).map(([k, x]) => [
        decodeStateValue(k),
        decodeStateValue(x),
      ]),
    );
  }
  if ('$bin' in tagged) return new Uint8Array(Buffer.from(tagged.$bin as string, 'base64'));
  throw new TypeError(`Unknown state value tag in ${JSON.stringify(v).slice(0, 80)}.`);
}
