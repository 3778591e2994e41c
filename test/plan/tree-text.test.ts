import { describe, expect, it } from 'vitest';
import { type TextTree, treeLines } from '../../core/plan/tree-text.js';

const leaf = (line: string): TextTree => ({ line, inputs: [] });

describe('a plan tree as text', () => {
  it("draws inputs below their node as Spark's treeString does: ':- ' before all but the last, '+- ' before the last", () => {
    const tree: TextTree = {
      line: 'Join',
      inputs: [
        { line: 'Filter', inputs: [leaf('Scan a')] },
        { line: 'Project', inputs: [leaf('Scan b')] },
      ],
    };
    expect(treeLines(tree)).toEqual([
      'Join',
      ':- Filter',
      ':  +- Scan a',
      '+- Project',
      '   +- Scan b',
    ]);
  });

  it('draws a leaf as its one line', () => {
    expect(treeLines(leaf('Scan a'))).toEqual(['Scan a']);
  });
});
