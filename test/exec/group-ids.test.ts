import { describe, expect, it } from 'vitest';
import type { Column } from '../../core/columnar/column-batch.js';
import { DictionaryBuilder, Float64Builder } from '../../core/columnar/column-builder.js';
import { batchGroups, valueCodes, windowCodes } from '../../core/exec/group-ids.js';

function values(...vs: unknown[]): Column {
  return { kind: 'values', length: vs.length, values: vs };
}

function float64(...vs: (number | null)[]): Column {
  const b = new Float64Builder();
  vs.forEach((v) => b.append(v));
  return b.finish();
}

/** The group of each row when `column` is the only key. */
function groupsOf(column: Column): number[] {
  return [...batchGroups([valueCodes(column)], column.length).groupOfRow];
}

describe('group ids', () => {
  it.each<[string, Column, number[]]>([
    ['strings, null a group of its own', values('b', 'a', null, 'b', null), [0, 1, 2, 0, 2]],
    ['-0 and 0 in one group, as encodeKey puts them', float64(0, -0, 1), [0, 0, 1]],
    ['NaN in one group', float64(NaN, 1, NaN), [0, 1, 0]],
    ['booleans', values(true, false, true, null), [0, 1, 0, 2]],
  ])('number groups by first row: %s', (_name, column, expected) => {
    expect(groupsOf(column)).toEqual(expected);
  });

  it('put rows of a dictionary whose dictionary repeats a string in one group', () => {
    const column: Column = {
      kind: 'dictionary',
      length: 4,
      indices: Int32Array.from([2, 0, 1, 0]),
      dictionary: ['x', 'y', 'x'],
      validity: Uint8Array.from([0b1011]),
    };
    // rows 0 and 1 are 'x' under two ids; row 2 is null
    expect(groupsOf(column)).toEqual([0, 0, 1, 0]);
  });

  it('give a dictionary column ids in order of first row, not of the dictionary', () => {
    const b = new DictionaryBuilder();
    ['a', 'b', 'c'].forEach((s) => b.append(s));
    const built = b.finish();
    const reversed: Column = { ...built, indices: Int32Array.from([2, 1, 0]) };
    const { groupOfRow, firstRow } = batchGroups([valueCodes(reversed)], 3);
    expect([...groupOfRow]).toEqual([0, 1, 2]);
    expect([...firstRow]).toEqual([0, 1, 2]);
  });

  it.each<[string, number[], number]>([
    ['aligned starts, as a window index', [600, 0, 1200, 600], 10],
    ['starts too far apart for an index, by distinct start', [0, 6e15, 0, 1200], 600],
    ['starts off the slide, by distinct start', [0, 5, 0, 5], 10],
  ])('key windows by start: %s', (_name, starts, slide) => {
    const codes = windowCodes(
      Float64Array.from(starts),
      new Uint8Array(starts.length).fill(1),
      slide,
    );
    const groups = [...batchGroups([codes], starts.length).groupOfRow];
    const expected = starts.map((s) => [...new Set(starts)].indexOf(s));
    expect(groups).toEqual(expected);
  });

  it('leave rows without a window out of every group', () => {
    const codes = windowCodes(Float64Array.from([0, 0, 600]), Uint8Array.from([1, 0, 1]), 600);
    expect([...batchGroups([codes], 3).groupOfRow]).toEqual([0, -1, 1]);
  });

  it('combine several keys into one group per distinct combination, in order of first row', () => {
    const a = valueCodes(values('x', 'y', 'x', 'y', 'x'));
    const b = valueCodes(values(1, 1, 2, 1, 1));
    const { groupOfRow, firstRow } = batchGroups([a, b], 5);
    expect([...groupOfRow]).toEqual([0, 1, 2, 1, 0]);
    expect([...firstRow]).toEqual([0, 1, 2]);
  });

  it('put every row in one group when there is no key', () => {
    expect([...batchGroups([], 3).groupOfRow]).toEqual([0, 0, 0]);
  });
});
