import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  copyStateValue,
  decodeStateValue,
  encodeStateValue,
  encodeStateValueForText,
} from '../../core/state/state-value.js';

/** Encodes, passes through JSON text as a state file does, and decodes. */
function roundTrip(v: unknown): unknown {
  return decodeStateValue(JSON.parse(JSON.stringify(encodeStateValue(v))));
}

describe('copyStateValue', () => {
  it('returns primitives and null as they are', () => {
    for (const v of [null, 0, -1.5, 'text', true]) expect(copyStateValue(v)).toBe(v);
  });

  it('copies arrays, Sets and Maps deeply, so changing the copy leaves the original intact', () => {
    const original = [
      1,
      new Set([[2, 3]]),
      new Map<string, unknown>([['k', [4, new Set(['x'])]]]),
    ] as const;
    const copy = copyStateValue(original);
    expect(copy).toEqual(original);

    (copy as unknown as unknown[]).push('extra');
    const [innerArray] = [...(copy[1] as Set<number[]>)];
    innerArray.push(99);
    (copy[1] as Set<unknown>).add('new');
    const mapValue = (copy[2] as Map<string, unknown[]>).get('k')!;
    (mapValue[1] as Set<string>).add('y');
    (copy[2] as Map<string, unknown>).set('k2', 1);

    expect(original).toEqual([
      1,
      new Set([[2, 3]]),
      new Map<string, unknown>([['k', [4, new Set(['x'])]]]),
    ]);
    expect(copy).not.toBe(original);
  });

  it('shares Uint8Arrays, which state values never mutate', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(copyStateValue([bytes])[0]).toBe(bytes);
  });
});

describe('encodeStateValue and decodeStateValue', () => {
  it('round-trip plain JSON values unchanged', () => {
    for (const v of [
      null,
      true,
      false,
      0,
      42,
      -3.25,
      1e300,
      '',
      'text with "quotes" and \n',
      [1, 'a', [null]],
    ]) {
      expect(roundTrip(v)).toEqual(v);
    }
  });

  it('round-trip NaN, Infinity, -Infinity and -0, which JSON cannot hold', () => {
    expect(roundTrip(NaN)).toBeNaN();
    expect(roundTrip(Infinity)).toBe(Infinity);
    expect(roundTrip(-Infinity)).toBe(-Infinity);
    expect(Object.is(roundTrip(-0), -0)).toBe(true);
    expect(roundTrip([NaN, 1, Infinity])).toEqual([NaN, 1, Infinity]);
  });

  it('round-trip Sets, Maps (with non-string keys) and Uint8Arrays, nested in each other', () => {
    const value = [
      new Set([1, 'a', null]),
      new Map<unknown, unknown>([
        [1, new Set(['x'])],
        ['two', new Map([[3, [NaN]]])],
        [null, new Uint8Array([0, 255, 7])],
      ]),
      new Uint8Array([]),
    ];
    const decoded = roundTrip(value) as unknown[];
    expect(decoded).toEqual(value);
    expect(decoded[0]).toBeInstanceOf(Set);
    expect(decoded[1]).toBeInstanceOf(Map);
    expect(decoded[2]).toBeInstanceOf(Uint8Array);
  });

  it('turns undefined into null', () => {
    expect(roundTrip(undefined)).toBeNull();
    expect(roundTrip([undefined])).toEqual([null]);
  });

  it('refuses values that are not state values, naming their type', () => {
    expect(() => encodeStateValue({ a: 1 })).toThrow(/Cannot encode state value of type Object/);
    expect(() => encodeStateValue(new Date(0))).toThrow(/type Date/);
  });

  it('refuses an object without a known tag when decoding', () => {
    expect(() => decodeStateValue({ $unknown: 1 })).toThrow(/Unknown state value tag/);
  });
});

describe('encodeStateValueForText', () => {
  /** State values, mostly plain JSON data, with the numbers and collections that need tags. */
  const stateValues = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(null, undefined, true, false, 0, -0, NaN, Infinity, -Infinity),
      fc.double(),
      fc.integer(),
      fc.string(),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.array(tie('value'), { maxLength: 3 }).map((xs) => new Set(xs)),
      fc.array(fc.tuple(tie('value'), tie('value')), { maxLength: 2 }).map((xs) => new Map(xs)),
      fc.uint8Array({ maxLength: 4 }),
    ),
  })).value;

  it("is the JSON text of the value's encoding, tagged parts included", () => {
    fc.assert(
      fc.property(stateValues, (v) => {
        expect(JSON.stringify(encodeStateValueForText(v))).toBe(
          JSON.stringify(encodeStateValue(v)),
        );
      }),
      { numRuns: 500 },
    );
    expect(JSON.stringify(encodeStateValueForText([[[7, 1.5e15], 0], [-0]]))).toBe(
      '[[[7,1500000000000000],0],[{"$n":"-0"}]]',
    );
  });

  it('gives a plain value itself, uncopied, and a value with a tag its encoding', () => {
    const plain = [[[7, 'u1'], 0], null, true];
    expect(encodeStateValueForText(plain)).toBe(plain);
    const tagged = [[7, NaN]];
    expect(encodeStateValueForText(tagged)).not.toBe(tagged);
    expect(encodeStateValueForText(tagged)).toEqual([[7, { $n: 'NaN' }]]);
  });

  it('refuses values that are not state values, nested in plain data too', () => {
    expect(() => encodeStateValueForText([1, [{ a: 1 }]])).toThrow(
      /Cannot encode state value of type Object/,
    );
  });
});
