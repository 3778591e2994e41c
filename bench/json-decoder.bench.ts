/**
 * JSON decoder benchmark (`npm run bench:json-decoder`): `from_json(value, CLICK_EVENT_SCHEMA)` over
 * one million canonical click events, in events per second, for
 * - today's row path: the bound `from_json` expression evaluated row by row (`JSON.parse` and the
 *   compiled reader of the schema), over strings, and over UTF-8 bytes through
 *   `cast(value as string)`, as a Kafka `value` is read;
 * - the columnar decoder over the same strings and bytes, reading every field, and reading only
 *   `ts` and `category`, the fields the canonical query uses.
 * The events are decoded in batches of 100,000, as micro-batches would hand them over.
 *
 * Before timing, every decoder's output is compared with the row path's, row by row; a mismatch
 * exits with status 1. Each contender runs once to warm up, then three times, interleaved; events
 * per second come from the median run. The last line of output is one JSON object:
 * {"row_path_strings_eps", "row_path_bytes_eps", "decoder_strings_eps", "decoder_bytes_eps",
 *  "decoder_projected_strings_eps", "decoder_projected_bytes_eps", "strings_ratio", "bytes_ratio"},
 * the ratios being the decoder's (every field) over the row path's on the same input.
 */
import { col } from '../core/api/functions.js';
import { type Column, valueAt } from '../core/columnar/column-batch.js';
import { bindExpression } from '../core/expr/binder.js';
import { schemaScope } from '../core/expr/scope.js';
import { builtinFunctions } from '../core/functions/builtin-functions.js';
import { from_json } from '../core/api/json-functions.js';
import { compileJsonColumnDecoder } from '../core/io/json-column-decoder.js';
import { resolveJsonParseOptions } from '../core/io/json-record.js';
import { BinaryType, field, StringType, struct } from '../core/types/data-types.js';
import { parseSchema } from '../core/types/type-names.js';
import { CLICK_EVENT_SCHEMA, generateClickEventLines } from './clickstream-events.js';

const EVENT_COUNT = 1_000_000;
const BATCH_SIZE = 100_000;
const TIMED_RUNS = 3;
const SCHEMA = parseSchema(CLICK_EVENT_SCHEMA);
const QUERY_FIELDS = ['ts', 'category'];

/** One way of decoding a batch; returns something that depends on every row, so no work is skipped. */
type Decode = (batch: Column) => number;

interface Contender {
  readonly label: string;
  readonly input: 'strings' | 'bytes';
  readonly decode: Decode;
  readonly seconds: number[];
}

/** Today's path: from_json bound over a one-column scope, evaluated row by row. */
function rowPath(asBytes: boolean): (batch: Column) => unknown[] {
  const value = col('value');
  const expression = from_json(asBytes ? value.cast('string') : value, SCHEMA);
  const scope = schemaScope(
    struct([field('value', asBytes ? BinaryType : StringType)]),
    builtinFunctions,
  );
  const bound = bindExpression(expression.expr, scope);
  return (batch) => {
    const values = (batch as { values: readonly unknown[] }).values;
    const out = new Array<unknown>(values.length);
    for (let i = 0; i < values.length; i++) out[i] = bound.eval([values[i]]);
    return out;
  };
}

function decoderPath(projection?: readonly string[]): Decode {
  const decoder = compileJsonColumnDecoder(
    SCHEMA,
    resolveJsonParseOptions({}, 'from_json()'),
    projection,
  );
  return (batch) => decoder.decode(batch).column.length;
}

/** The first row where the decoder's column differs from the row path's rows, or -1. */
function firstDifference(batch: Column, projection?: readonly string[]): number {
  const expected = rowPath(batch.kind === 'values' && typeof batch.values[0] !== 'string')(batch);
  const decoder = compileJsonColumnDecoder(
    SCHEMA,
    resolveJsonParseOptions({}, 'from_json()'),
    projection,
  );
  const { column } = decoder.decode(batch);
  const read = SCHEMA.fields.map((f) => projection === undefined || projection.includes(f.name));
  for (let i = 0; i < batch.length; i++) {
    const want = (expected[i] as unknown[]).map((v, f) => (read[f] ? v : null));
    if (JSON.stringify(valueAt(column, i)) !== JSON.stringify(want)) return i;
  }
  return -1;
}

function batchesOf(values: readonly unknown[]): Column[] {
  const batches: Column[] = [];
  for (let start = 0; start < values.length; start += BATCH_SIZE) {
    const slice = values.slice(start, start + BATCH_SIZE);
    batches.push({ kind: 'values', length: slice.length, values: slice });
  }
  return batches;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function pad(text: string, width: number, alignRight = false): string {
  return alignRight ? text.padStart(width) : text.padEnd(width);
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function main(): number {
  const lines = generateClickEventLines({ count: EVENT_COUNT });
  const encoder = new TextEncoder();
  const inputs = {
    strings: batchesOf(lines),
    bytes: batchesOf(lines.map((line) => encoder.encode(line))),
  };
  for (const [name, batches] of Object.entries(inputs)) {
    for (const projection of [undefined, QUERY_FIELDS]) {
      const row = firstDifference(batches[0], projection);
      if (row >= 0) {
        console.error(`The decoder differs from from_json on ${name}, row ${row}: ${lines[row]}`);
        return 1;
      }
    }
  }
  const rowPathCount = (asBytes: boolean): Decode => {
    const decode = rowPath(asBytes);
    return (batch) => decode(batch).length;
  };
  const contenders: Contender[] = [
    {
      label: 'from_json row by row, strings',
      input: 'strings',
      decode: rowPathCount(false),
      seconds: [],
    },
    {
      label: 'from_json row by row, bytes (cast)',
      input: 'bytes',
      decode: rowPathCount(true),
      seconds: [],
    },
    {
      label: 'decoder, strings, every field',
      input: 'strings',
      decode: decoderPath(),
      seconds: [],
    },
    { label: 'decoder, bytes, every field', input: 'bytes', decode: decoderPath(), seconds: [] },
    {
      label: 'decoder, strings, ts + category',
      input: 'strings',
      decode: decoderPath(QUERY_FIELDS),
      seconds: [],
    },
    {
      label: 'decoder, bytes, ts + category',
      input: 'bytes',
      decode: decoderPath(QUERY_FIELDS),
      seconds: [],
    },
  ];
  for (let round = 0; round <= TIMED_RUNS; round++) {
    for (const c of contenders) {
      const started = performance.now();
      let rows = 0;
      for (const batch of inputs[c.input]) rows += c.decode(batch);
      const elapsed = (performance.now() - started) / 1000;
      if (rows !== EVENT_COUNT) {
        console.error(`${c.label} decoded ${rows} rows of ${EVENT_COUNT}.`);
        return 1;
      }
      if (round > 0) c.seconds.push(elapsed); // round 0 warms up
    }
  }
  const eps = contenders.map((c) => EVENT_COUNT / median(c.seconds));
  console.log(
    `from_json over ${EVENT_COUNT.toLocaleString('en-US')} canonical events in batches of ${BATCH_SIZE.toLocaleString('en-US')}; ` +
      `every decoder checked against from_json row by row. ${TIMED_RUNS} runs after a warm-up; events/s from the median run.`,
  );
  const header = ['events/s', 'median s', 'best s', 'vs row'].map((h) => pad(h, 11, true));
  console.log(pad('', 36) + header.join(''));
  contenders.forEach((c, i) => {
    const reference = c.input === 'strings' ? eps[0] : eps[1];
    const cells = [
      Math.round(eps[i]).toLocaleString('en-US'),
      median(c.seconds).toFixed(2),
      Math.min(...c.seconds).toFixed(2),
      (eps[i] / reference).toFixed(2),
    ];
    console.log(pad(c.label, 36) + cells.map((cell) => pad(cell, 11, true)).join(''));
  });
  const [rowStrings, rowBytes, strings, bytes, projectedStrings, projectedBytes] = eps;
  console.log(
    JSON.stringify({
      row_path_strings_eps: Math.round(rowStrings),
      row_path_bytes_eps: Math.round(rowBytes),
      decoder_strings_eps: Math.round(strings),
      decoder_bytes_eps: Math.round(bytes),
      decoder_projected_strings_eps: Math.round(projectedStrings),
      decoder_projected_bytes_eps: Math.round(projectedBytes),
      strings_ratio: round2(strings / rowStrings),
      bytes_ratio: round2(bytes / rowBytes),
    }),
  );
  return 0;
}

process.exitCode = main();
