import { describe, expect, it } from 'vitest';
import { batchToRows, type StructColumn } from '../../core/columnar/column-batch.js';
import { rowsToBatch } from '../../core/columnar/column-builder.js';
import { ProjectExec } from '../../core/exec/project-exec.js';
import { col, from_json, SluiceSession } from '../../core/index.js';
import type { Project } from '../../core/plan/logical-plan.js';
import { batchContext, batchesOperator, producedBatches } from './batch-operator.js';

const session = new SluiceSession();
const clock = { batchTimestampMicros: 0 };

describe('ProjectExec on column batches', () => {
  const nested = session.createDataFrame([], 'e STRUCT<a: INT, b: STRING>, k INT');
  const expand = nested.select('e.*').plan as Project;

  it('takes the field columns of a struct with no null rows as they are', () => {
    const batch = rowsToBatch(expand.input.schema, [
      [[1, 'x'], 10],
      [[2, 'y'], 20],
    ]);
    const [out] = producedBatches(
      new ProjectExec(expand, batchesOperator(batch), clock),
      batchContext(),
    );
    const struct = batch.columns[0] as StructColumn;
    expect(out.columns[0]).toBe(struct.children[0]);
    expect(out.columns[1]).toBe(struct.children[1]);
    expect(out.schema.fields.map((f) => f.name)).toEqual(['a', 'b']);
  });

  it('gives all-null fields for a null struct, whatever its field columns hold there', () => {
    const batch = rowsToBatch(expand.input.schema, [
      [[1, 'x'], 10],
      [null, 20],
    ]);
    const struct = batch.columns[0] as StructColumn;
    // a decoder may leave any value under a null struct; only the struct's validity says null
    const junk = rowsToBatch(expand.input.schema, [
      [[1, 'x'], 10],
      [[9, 'junk'], 20],
    ]).columns[0] as StructColumn;
    const withJunk = {
      ...batch,
      columns: [{ ...struct, children: junk.children }, batch.columns[1]],
    };
    const [out] = producedBatches(
      new ProjectExec(expand, batchesOperator(withJunk), clock),
      batchContext(),
    );
    expect(batchToRows(out)).toEqual([
      [1, 'x'],
      [null, null],
    ]);
  });

  it('leaves out a row DROPMALFORMED drops, counts it once, and evaluates nothing after it for that row', () => {
    const events = session.createDataFrame([], 'j STRING, l LONG');
    // l does not fit an int in the malformed row: evaluating its cast there would fail the query
    const node = events.select(
      from_json(col('j'), 'n INT', { mode: 'DROPMALFORMED' }).alias('e'),
      col('l').cast('int').alias('i'),
    ).plan as Project;
    const batch = rowsToBatch(node.input.schema, [
      ['{"n": 1}', 5],
      ['{', 2 ** 40],
      ['{"n": 3}', 7],
    ]);
    const ctx = batchContext();
    const [out] = producedBatches(new ProjectExec(node, batchesOperator(batch), clock), ctx);
    expect(batchToRows(out)).toEqual([
      [[1], 5],
      [[3], 7],
    ]);
    expect(ctx.counters).toEqual({ malformedRecords: 1 });
  });

  it('pushes no batch when every row of its input is dropped', () => {
    const events = session.createDataFrame([], 'j STRING');
    const node = events.select(from_json(col('j'), 'n INT', { mode: 'DROPMALFORMED' }))
      .plan as Project;
    const batch = rowsToBatch(node.input.schema, [['{'], ['[']]);
    const ctx = batchContext();
    expect(producedBatches(new ProjectExec(node, batchesOperator(batch), clock), ctx)).toEqual([]);
    expect(ctx.counters).toEqual({ malformedRecords: 2 });
  });
});
