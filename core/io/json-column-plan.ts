/**
 * The compiled plan of the columnar JSON decoder for one schema. Each value of the schema gets a
 * decoder, which reads the value at the cursor (checking it fits its type, as `from_json`'s reader
 * would) into the record's slots, and a committer, which appends what the slots hold to the
 * value's column builder. A record is read whole into the slots before anything is appended, so a
 * record the fast path gives up on halfway (LEAVE_FAST_PATH) leaves no trace in the columns.
 *
 * Slots rather than values: the fast path builds no object per record. Each atomic value and each
 * struct owns one slot (numbers and booleans in a Float64Array, strings and other values in an
 * array, and a flag saying the slot holds a value, not null), numbered depth first, so the slots of
 * a struct's fields follow its own. A repeated key overwrites its slots, so the last occurrence
 * wins, as with `JSON.parse`; a struct clears its fields' slots when it starts, as a repeated
 * struct replaces the first one whole.
 *
 * Fields the query does not read are still read to check that they fit (a value that does not fit
 * makes the record malformed whatever the query reads), except strings, which take any JSON value,
 * so they are only checked to be JSON.
 */
import { ExecutionError } from '../errors.js';
import { type ColumnBuilder, StructBuilder } from '../columnar/column-builder.js';
import type { DataType, StructType } from '../types/data-types.js';
import { parseTimestamp, parseTimestampSlice } from '../types/timestamp-text.js';
import { MICROS } from '../types/time-units.js';
import { JsonStringCache } from './json-string-cache.js';
import {
  JSON_CODES,
  type JsonTextCursor,
  keyToken,
  LEAVE_FAST_PATH,
  tokenCodes,
} from './json-text-cursor.js';
import { compileJsonReader, JsonTypeMismatch } from './json-value.js';

/** The values of one record, by slot. */
export class RecordSlots {
  /** Numbers, and booleans as 1 or 0. */
  readonly numbers: Float64Array;
  /** Strings and other engine values. */
  readonly values: unknown[];
  /** 1 when the slot holds a value, 0 when the value is null or missing. */
  readonly present: Uint8Array;

  constructor(count: number) {
    this.numbers = new Float64Array(count);
    this.values = new Array<unknown>(count).fill(null);
    this.present = new Uint8Array(count);
  }
}

/** Reads the value at the cursor (whitespace skipped) into the slots, or throws LEAVE_FAST_PATH. */
export type ValueDecoder = (cursor: JsonTextCursor, slots: RecordSlots) => void;

/** Appends a record's value, held in the slots, to its column builder. */
export type SlotCommitter = (slots: RecordSlots, builder: ColumnBuilder) => void;

/** A value of the schema, compiled. */
export interface CompiledValue {
  readonly decode: ValueDecoder;
  readonly commit: SlotCommitter;
  /** The value's slot (a struct's own slot), -1 for the ignored corrupt-record column, which has none. */
  readonly slot: number;
}

/** The plan of the top-level struct: one compiled value per field, and the record's decoder. */
export interface RecordPlan {
  /** Reads one whole record into the slots, or throws LEAVE_FAST_PATH. */
  readonly decode: ValueDecoder;
  /** The compiled value of each top-level field, in schema order. */
  readonly fields: readonly CompiledValue[];
  /** How many slots a record needs. */
  readonly slotCount: number;
}

const { quote, minus, zero, nine, openBrace, closeBrace, lowerT, lowerF, lowerN } = JSON_CODES;
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/**
 * Compiles the plan of records of `schema`. Fields whose index `isRead` refuses are only checked;
 * the field `ignoredField` (the corrupt-record column) is not read from the JSON at all.
 */
export function compileRecordPlan(
  schema: StructType,
  isRead: (fieldIndex: number) => boolean,
  ignoredField: string | undefined,
): RecordPlan {
  const compiler = new PlanCompiler();
  const root = compiler.struct(schema, isRead, ignoredField);
  // The record itself must be an object: a top-level null, like any other value, is malformed.
  const decode: ValueDecoder = (cursor, slots) => {
    cursor.skipWhitespace();
    root.decode(cursor, slots);
    cursor.expectEnd();
  };
  return { decode, fields: root.fields, slotCount: compiler.slotCount };
}

/** A struct, compiled: its decoder takes an object only (a null is the caller's to read). */
interface CompiledStruct extends CompiledValue {
  readonly fields: readonly CompiledValue[];
}

class PlanCompiler {
  slotCount = 0;

  value(t: DataType, read: boolean): CompiledValue {
    if (t.kind === 'struct') {
      const compiled = this.struct(t, () => read, undefined);
      return {
        decode: nullOr(compiled.slot, compiled.decode),
        commit: compiled.commit,
        slot: compiled.slot,
      };
    }
    const slot = this.slotCount++;
    return { decode: nullOr(slot, atomicDecoder(t, slot, read)), commit: committer(t, slot), slot };
  }

  struct(
    t: StructType,
    isRead: (fieldIndex: number) => boolean,
    ignoredField: string | undefined,
  ): CompiledStruct {
    const slot = this.slotCount++;
    const first = this.slotCount;
    const fields = t.fields.map((f, i) =>
      f.name === ignoredField ? IGNORED : this.value(f.dataType, isRead(i)),
    );
    const end = this.slotCount;
    const lookup = new FieldLookup(t.fields.map((f) => f.name));
    const decoders = fields.map((f) => f.decode);
    const decode: ValueDecoder = (cursor, slots) => {
      if (cursor.codeAt(cursor.pos) !== openBrace || lookup.ambiguous) throw LEAVE_FAST_PATH;
      slots.present.fill(0, first, end);
      slots.present[slot] = 1;
      cursor.enterContainer();
      if (cursor.skipWhitespace() === closeBrace) {
        cursor.leaveContainer();
        return;
      }
      let next = 0;
      do {
        const f = lookup.readKey(cursor, next);
        if (f < 0) {
          cursor.skipValue();
        } else {
          decoders[f](cursor, slots);
          next = f + 1;
        }
      } while (cursor.nextMember(closeBrace));
    };
    const commits = fields.map((f) => f.commit);
    const commit: SlotCommitter = (slots, builder) => {
      if (slots.present[slot] === 0) {
        builder.appendNull();
        return;
      }
      if (!(builder instanceof StructBuilder)) {
        throw new ExecutionError(
          'Internal error: a struct value was given a builder of another kind.',
        );
      }
      const children = builder.children;
      for (let i = 0; i < commits.length; i++) commits[i](slots, children[i]);
      builder.appendValid();
    };
    return { decode, commit, fields, slot };
  }
}

/** The corrupt-record column: its key is skipped, and the column stays null on the fast path. */
const IGNORED: CompiledValue = {
  decode: (cursor) => cursor.skipValue(),
  commit: (_slots, builder) => builder.appendNull(),
  slot: -1,
};

/**
 * Finds a key among a struct's field names, trying the field after the last one found first:
 * records of one producer nearly always list their keys in one order, so the expected key is
 * matched whole, quotes and colon included, before any key is read as a string.
 */
class FieldLookup {
  private readonly names: readonly string[];
  /** Each field's `"name":` text, for the whole-key match (undefined: the name needs escapes). */
  private readonly tokens: readonly (string | undefined)[];
  /** Each token's codes, for the match against bytes. */
  private readonly tokenCodes: readonly Uint8Array[];
  /** True when two fields share a name, which the general reading handles. */
  readonly ambiguous: boolean;

  constructor(names: readonly string[]) {
    this.names = names;
    this.tokens = names.map(keyToken);
    this.tokenCodes = this.tokens.map((t) => (t === undefined ? EMPTY_CODES : tokenCodes(t)));
    this.ambiguous = new Set(names).size !== names.length;
  }

  /**
   * Reads the key at the cursor and the colon after it, leaving the cursor at the value
   * (whitespace skipped); returns the index of the field it names, -1 for none.
   */
  readKey(cursor: JsonTextCursor, next: number): number {
    const token = next < this.tokens.length ? this.tokens[next] : undefined;
    if (token !== undefined && cursor.skipToken(token, this.tokenCodes[next])) {
      cursor.skipWhitespace();
      return next;
    }
    if (cursor.codeAt(cursor.pos) !== quote) throw LEAVE_FAST_PATH;
    cursor.readString();
    const f = this.indexOfKey(cursor, next);
    cursor.expectColon();
    return f;
  }

  /** The index of the field named by the last string the cursor read, -1 for none. */
  private indexOfKey(cursor: JsonTextCursor, next: number): number {
    const names = this.names;
    if (cursor.stringEscaped || (cursor.isBytes && cursor.stringWide)) {
      return names.indexOf(cursor.stringValue());
    }
    if (next < names.length && cursor.stringIs(names[next])) return next;
    for (let i = 0; i < names.length; i++) {
      if (i !== next && cursor.stringIs(names[i])) return i;
    }
    return -1;
  }
}

const EMPTY_CODES = new Uint8Array(0);

/** `decode`, after reading a JSON null as a missing value. */
function nullOr(slot: number, decode: ValueDecoder): ValueDecoder {
  return (cursor, slots) => {
    if (cursor.codeAt(cursor.pos) === lowerN) {
      cursor.readNull();
      slots.present[slot] = 0;
      return;
    }
    decode(cursor, slots);
  };
}

/** The decoder of a non-null value of an atomic, array or map type; `read` says whether the query reads it. */
function atomicDecoder(t: DataType, slot: number, read: boolean): ValueDecoder {
  switch (t.kind) {
    case 'string':
      return read ? stringDecoder(slot) : (cursor) => cursor.skipValue();
    case 'boolean':
      return (cursor, slots) => {
        const c = cursor.codeAt(cursor.pos);
        if (c !== lowerT && c !== lowerF) throw LEAVE_FAST_PATH;
        setNumber(slots, slot, cursor.readBoolean() ? 1 : 0);
      };
    case 'int':
      return integerDecoder(slot, (v) => Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX);
    case 'long':
      return integerDecoder(slot, Number.isSafeInteger);
    case 'double':
      return (cursor, slots) => setNumber(slots, slot, numberAt(cursor));
    case 'timestamp':
      return (cursor, slots) => setNumber(slots, slot, timestampAt(cursor));
    case 'date':
      return (cursor, slots) => {
        if (cursor.codeAt(cursor.pos) !== quote) throw LEAVE_FAST_PATH;
        setNumber(slots, slot, Math.floor(timestampAt(cursor) / MICROS.day));
      };
    case 'binary':
    case 'interval':
    case 'null':
    case 'array':
    case 'map':
      return parsedDecoder(t, slot);
    case 'struct':
      throw new ExecutionError('Internal error: a struct was compiled as an atomic JSON value.');
  }
}

/**
 * A string takes any value, keeping a non-string as its JSON text, as `from_json` does. Its
 * strings come from the field's cache, so a repeated value is not sliced again.
 */
function stringDecoder(slot: number): ValueDecoder {
  const cache = new JsonStringCache();
  return (cursor, slots) => {
    const c = cursor.codeAt(cursor.pos);
    let value: string;
    if (c === quote) {
      cursor.readString();
      value = cache.valueOf(cursor);
    } else if (c === lowerT || c === lowerF) {
      value = cursor.readBoolean() ? 'true' : 'false';
    } else if (c === minus || (c >= zero && c <= nine)) {
      cursor.readNumber();
      value = JSON.stringify(cursor.numberValue());
    } else {
      const start = cursor.pos;
      cursor.skipValue();
      value = JSON.stringify(JSON.parse(cursor.textOf(start, cursor.pos)));
    }
    slots.values[slot] = value;
    slots.present[slot] = 1;
  };
}

function integerDecoder(slot: number, fits: (v: number) => boolean): ValueDecoder {
  return (cursor, slots) => {
    const v = numberAt(cursor);
    if (!fits(v)) throw LEAVE_FAST_PATH;
    setNumber(slots, slot, v);
  };
}

/** The number at the cursor; anything else (NaN, a string) is left to the general reading. */
function numberAt(cursor: JsonTextCursor): number {
  const c = cursor.codeAt(cursor.pos);
  if (c !== minus && !(c >= zero && c <= nine)) throw LEAVE_FAST_PATH;
  cursor.readNumber();
  return cursor.numberValue();
}

/** A timestamp from text, or from integral seconds since the epoch, as `from_json` reads them. */
function timestampAt(cursor: JsonTextCursor): number {
  if (cursor.codeAt(cursor.pos) !== quote) {
    const seconds = numberAt(cursor);
    if (!Number.isInteger(seconds)) throw LEAVE_FAST_PATH;
    return seconds * MICROS.second;
  }
  cursor.readString();
  const micros = cursor.stringEscaped
    ? parseTimestamp(cursor.stringValue())
    : parseTimestampSlice(
        cursor.isBytes ? cursor.bytes : cursor.text,
        cursor.stringStart,
        cursor.stringEnd,
      );
  if (micros === null) throw LEAVE_FAST_PATH;
  return micros;
}

/**
 * Binary, arrays and maps become engine values (a values column) whatever reads them, so their
 * text, checked by the cursor, is read by `JSON.parse` and the type's reader.
 */
function parsedDecoder(t: DataType, slot: number): ValueDecoder {
  const read = compileJsonReader(t);
  return (cursor, slots) => {
    const start = cursor.pos;
    cursor.skipValue();
    const json: unknown = JSON.parse(cursor.textOf(start, cursor.pos));
    try {
      slots.values[slot] = read(json);
    } catch (e) {
      if (e instanceof JsonTypeMismatch) throw LEAVE_FAST_PATH;
      throw e;
    }
    slots.present[slot] = 1;
  };
}

function setNumber(slots: RecordSlots, slot: number, value: number): void {
  slots.numbers[slot] = value;
  slots.present[slot] = 1;
}

/** The committer of an atomic, array or map value. */
function committer(t: DataType, slot: number): SlotCommitter {
  switch (t.kind) {
    case 'int':
    case 'date':
    case 'long':
    case 'double':
    case 'timestamp':
      return (slots, builder) => {
        if (slots.present[slot] === 0) builder.appendNull();
        else builder.append(slots.numbers[slot]);
      };
    case 'boolean':
      return (slots, builder) => {
        if (slots.present[slot] === 0) builder.appendNull();
        else builder.append(slots.numbers[slot] !== 0);
      };
    default:
      return (slots, builder) => {
        if (slots.present[slot] === 0) builder.appendNull();
        else builder.append(slots.values[slot]);
      };
  }
}
