/**
 * mergeSessions, the decision at the heart of session windows: which rows and stored sessions of a
 * group share a session. Sessions here count their rows, so a merged session's count shows which
 * rows and sessions went into it.
 */
import { describe, expect, it } from 'vitest';
import { mergeSessions, type Session, type SessionFold } from '../../core/exec/session-merge.js';

/** Accumulators: one count of rows. */
const counting: SessionFold = {
  newAccumulators: () => [0],
  update: (accs) => {
    accs[0] = (accs[0] as number) + 1;
  },
  merge: (earlier, later) => {
    earlier[0] = (earlier[0] as number) + (later[0] as number);
  },
};

/** A row at `t` whose own session lasts `gap`. */
const row = (t: number, gap = 10) => ({ start: t, end: t + gap, row: [t] });

const cases: {
  name: string;
  stored: Session[];
  rows: ReturnType<typeof row>[];
  expected: Session[];
}[] = [
  {
    name: 'rows closer than the gap share a session ending a gap after the last',
    stored: [],
    rows: [row(0), row(5)],
    expected: [[0, 15, [2]]],
  },
  {
    name: 'a row exactly a gap after another joins its session (start <= end, as Spark)',
    stored: [],
    rows: [row(0), row(10)],
    expected: [[0, 20, [2]]],
  },
  {
    name: 'a row more than a gap after another starts a new session',
    stored: [],
    rows: [row(0), row(11)],
    expected: [
      [0, 10, [1]],
      [11, 21, [1]],
    ],
  },
  {
    name: 'rows in any order give the sessions of their times',
    stored: [],
    rows: [row(30), row(0), row(5)],
    expected: [
      [0, 15, [2]],
      [30, 40, [1]],
    ],
  },
  {
    name: 'a long gap keeps the end of a session a later short one falls inside',
    stored: [],
    rows: [row(0, 30), row(5, 2)],
    expected: [[0, 30, [2]]],
  },
  {
    name: 'a row inside a stored session joins it',
    stored: [[0, 20, [3]]],
    rows: [row(5)],
    expected: [[0, 20, [4]]],
  },
  {
    name: 'a row before a stored session that reaches it extends it backwards',
    stored: [[10, 20, [1]]],
    rows: [row(2)],
    expected: [[2, 20, [2]]],
  },
  {
    name: 'a row bridging two stored sessions merges them, accumulators merged',
    stored: [
      [0, 10, [2]],
      [15, 25, [3]],
    ],
    rows: [row(8)],
    expected: [[0, 25, [6]]],
  },
  {
    name: 'stored sessions no row reaches stay as they are',
    stored: [
      [0, 10, [2]],
      [50, 60, [1]],
    ],
    rows: [row(30)],
    expected: [
      [0, 10, [2]],
      [30, 40, [1]],
      [50, 60, [1]],
    ],
  },
];

describe('mergeSessions', () => {
  for (const c of cases) {
    it(c.name, () => {
      const stored = c.stored.map(([s, e, a]): Session => [s, e, [...a]]);
      expect(mergeSessions(stored, c.rows, counting)).toEqual(c.expected);
    });
  }
});
