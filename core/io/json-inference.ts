/**
 * Type inference for JSON records, with the rules of Spark's JsonInferSchema:
 * - integral numbers are long (double beyond the safe integer range, which long cannot hold),
 *   numbers with a fraction or exponent are double, strings are string (no timestamp guessing),
 *   true/false boolean, objects structs with their fields sorted by name, arrays arrays of the
 *   common type of their elements;
 * - two types merge into the wider: long and double into double, structs into the union of their
 *   fields, arrays by their elements, null into anything; any other conflict into string;
 * - finally a type that stayed null becomes string, and fields that are empty structs or have an
 *   empty name are dropped.
 *
 * A scanner reads the text itself rather than using `JSON.parse`, because `JSON.parse` forgets
 * whether a number had a fraction (`10.0` must infer double, as in Spark) and does not say where a
 * syntax error is. It accepts exactly the grammar `JSON.parse` accepts, nested at most
 * MAX_JSON_NESTING_DEPTH deep (see json-nesting.ts), plus the extensions a JsonSyntax allows
 * (see json-syntax.ts); it also gives the standard JSON of lenient text (`standardJsonText`).
 */
import {
  ArrayOf,
  BooleanType,
  type DataType,
  DoubleType,
  field,
  isNumeric,
  LongType,
  NullType,
  StringType,
  struct,
  type StructField,
  type StructType,
} from '../types/data-types.js';
import { MAX_JSON_NESTING_DEPTH } from './json-nesting.js';
import { type JsonSyntax, STRICT_JSON } from './json-syntax.js';

/** The inferred type of one JSON text, or null when the text is not JSON of `syntax`. */
export function inferJsonType(text: string, syntax: JsonSyntax = STRICT_JSON): DataType | null {
  try {
    return new JsonScanner(text, syntax).document();
  } catch (e) {
    if (e instanceof SyntaxErrorAt) return null;
    throw e;
  }
}

/** Where and why a text is not a JSON record. */
export interface JsonSyntaxError {
  /** The position (0-based) of the character in error. */
  readonly offset: number;
  /** An unexpected character or end, or an array or object nested deeper than the limit. */
  readonly reason: 'unexpected' | 'too-deep';
}

/** The first syntax error in `text`, or null when it is a valid JSON record of `syntax`. */
export function jsonSyntaxError(
  text: string,
  syntax: JsonSyntax = STRICT_JSON,
): JsonSyntaxError | null {
  try {
    new JsonScanner(text, syntax).document();
    return null;
  } catch (e) {
    if (e instanceof SyntaxErrorAt) return e;
    throw e;
  }
}

/**
 * The standard JSON that means what `text`, JSON of `syntax`, means: single-quoted strings become
 * double-quoted ones, and non-numeric numbers the strings (`"NaN"`) that JSON readers take for
 * them. Undefined when `text` is not JSON of `syntax`.
 */
export function standardJsonText(text: string, syntax: JsonSyntax): string | undefined {
  const edits: Edit[] = [];
  try {
    new JsonScanner(text, syntax, edits).document();
  } catch (e) {
    if (e instanceof SyntaxErrorAt) return undefined;
    throw e;
  }
  let out = '';
  let from = 0;
  for (const edit of edits) {
    out += text.slice(from, edit.start) + edit.replacement;
    from = edit.end;
  }
  return out + text.slice(from);
}

/** The narrowest type both inferred types `a` and `b` fit in (Spark's `compatibleType`). */
export function mergeJsonTypes(a: StructType, b: StructType): StructType;
export function mergeJsonTypes(a: DataType, b: DataType): DataType;
export function mergeJsonTypes(a: DataType, b: DataType): DataType {
  if (a.kind === 'null') return b;
  if (b.kind === 'null') return a;
  if (a.kind === 'struct' && b.kind === 'struct') return mergeStructs(a, b);
  if (a.kind === 'array' && b.kind === 'array') {
    return ArrayOf(mergeJsonTypes(a.elementType, b.elementType));
  }
  if (a.kind === b.kind) return a; // two atomic types: inference never makes maps
  if (isNumeric(a) && isNumeric(b)) return DoubleType;
  return StringType;
}

/** Merges two structs whose fields are sorted by name into the sorted union of their fields. */
function mergeStructs(a: StructType, b: StructType): StructType {
  const fields: StructField[] = [];
  let i = 0;
  let j = 0;
  while (i < a.fields.length || j < b.fields.length) {
    if (j === b.fields.length || (i < a.fields.length && a.fields[i].name < b.fields[j].name)) {
      fields.push(a.fields[i++]);
    } else if (i === a.fields.length || b.fields[j].name < a.fields[i].name) {
      fields.push(b.fields[j++]);
    } else {
      fields.push(
        field(a.fields[i].name, mergeJsonTypes(a.fields[i++].dataType, b.fields[j++].dataType)),
      );
    }
  }
  return struct(fields);
}

/** Turns a merged record type into a schema: null types become string, empty structs and unnamed fields go. */
export function finishInferredSchema(schema: StructType): StructType {
  return finishStruct(schema) ?? struct([]);
}

function finishType(t: DataType): DataType | null {
  switch (t.kind) {
    case 'null':
      return StringType;
    case 'array': {
      const element = finishType(t.elementType);
      return element && ArrayOf(element);
    }
    case 'struct':
      return finishStruct(t);
    default:
      return t;
  }
}

function finishStruct(t: StructType): StructType | null {
  const fields = t.fields.flatMap((f) => {
    const finished = f.name === '' ? null : finishType(f.dataType);
    return finished ? [field(f.name, finished)] : [];
  });
  return fields.length === 0 ? null : struct(fields);
}

/** The scanner's signal for a syntax error; caught inside this module. */
class SyntaxErrorAt implements JsonSyntaxError {
  readonly offset: number;
  readonly reason: JsonSyntaxError['reason'];
  constructor(offset: number, reason: JsonSyntaxError['reason'] = 'unexpected') {
    this.offset = offset;
    this.reason = reason;
  }
}

/**
 * The double-quoted form of a string literal in single or double quotes whose escapes are valid
 * (`\'` included): a `\'` becomes `'`, a bare `"` becomes `\"`, other escapes stay.
 */
function standardString(raw: string): string {
  let out = '"';
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i];
    if (c === '\\') {
      const next = raw[++i];
      out += next === "'" ? "'" : `\\${next}`;
    } else {
      out += c === '"' ? '\\"' : c;
    }
  }
  return `${out}"`;
}

/** A span of the text to replace, to make lenient JSON standard. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
/** Jackson's non-numeric numbers; the longer of two tokens with a common start comes first. */
const NON_NUMERIC = ['NaN', 'Infinity', '+Infinity', '-Infinity', '+INF', '-INF'];
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES = '"\\/bfnrt';

/**
 * A recursive-descent reader of one JSON text that returns its type instead of its value. It
 * refuses to nest deeper than MAX_JSON_NESTING_DEPTH, which also keeps its recursion off the
 * stack limit.
 */
class JsonScanner {
  private pos = 0;
  private depth = 0;
  private readonly text: string;
  private readonly syntax: JsonSyntax;
  /** Where to record the edits that make the text standard JSON; none are made without it. */
  private readonly edits: Edit[] | undefined;

  constructor(text: string, syntax: JsonSyntax, edits?: Edit[]) {
    this.text = text;
    this.syntax = syntax;
    this.edits = edits;
  }

  document(): DataType {
    const t = this.value();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail();
    return t;
  }

  private value(): DataType {
    this.skipSpace();
    switch (this.text[this.pos]) {
      case '{':
        return this.object();
      case '[':
        return this.array();
      case '"':
        this.skipString();
        return StringType;
      case "'":
        if (!this.syntax.allowSingleQuotes) this.fail();
        this.skipString();
        return StringType;
      case 't':
        return this.literal('true', BooleanType);
      case 'f':
        return this.literal('false', BooleanType);
      case 'n':
        return this.literal('null', NullType);
      default:
        return this.nonNumericNumber() ?? this.number();
    }
  }

  /** DoubleType after a non-numeric number the syntax allows, else undefined (nothing consumed). */
  private nonNumericNumber(): DataType | undefined {
    if (!this.syntax.allowNonNumericNumbers) return undefined;
    const token = NON_NUMERIC.find((t) => this.text.startsWith(t, this.pos));
    if (token === undefined) return undefined;
    this.edits?.push({ start: this.pos, end: this.pos + token.length, replacement: `"${token}"` });
    this.pos += token.length;
    return DoubleType;
  }

  private object(): StructType {
    this.enter();
    const fields = new Map<string, DataType>(); // JSON.parse keeps the last of repeated keys; so does set()
    this.skipSpace();
    if (!this.consume('}')) {
      do {
        this.skipSpace();
        const quote = this.text[this.pos];
        if (quote !== '"' && !(quote === "'" && this.syntax.allowSingleQuotes)) this.fail();
        const name = this.key();
        this.skipSpace();
        this.expect(':');
        fields.set(name, this.value());
        this.skipSpace();
      } while (this.consume(','));
      this.expect('}');
    }
    this.depth--;
    const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return struct(sorted.map(([name, t]) => field(name, t)));
  }

  private array(): DataType {
    this.enter();
    let element: DataType = NullType;
    this.skipSpace();
    if (!this.consume(']')) {
      do {
        element = mergeJsonTypes(element, this.value());
        this.skipSpace();
      } while (this.consume(','));
      this.expect(']');
    }
    this.depth--;
    return ArrayOf(element);
  }

  /** Moves past the `[` or `{` that opens one more level of nesting. */
  private enter(): void {
    if (++this.depth > MAX_JSON_NESTING_DEPTH) throw new SyntaxErrorAt(this.pos, 'too-deep');
    this.pos++;
  }

  private key(): string {
    const start = this.pos;
    const form = this.skipString();
    const raw = this.text.slice(start, this.pos);
    if (form === 'plain') return raw.slice(1, -1);
    return JSON.parse(form === 'escaped' ? raw : standardString(raw)) as string;
  }

  /**
   * Moves past a string; returns whether it has escapes, or is 'lenient': single-quoted or with a
   * `\'` escape, which standard JSON lacks (then it records the edit to its standard form).
   */
  private skipString(): 'plain' | 'escaped' | 'lenient' {
    const text = this.text;
    const start = this.pos;
    const quote = text[start];
    let form: 'plain' | 'escaped' | 'lenient' = quote === '"' ? 'plain' : 'lenient';
    let i = start + 1;
    while (text[i] !== quote) {
      if (i >= text.length || text.charCodeAt(i) < 0x20) this.fail(i); // control characters must be escaped
      if (text[i] === '\\') {
        if (text[i + 1] === "'" && this.syntax.allowSingleQuotes) form = 'lenient';
        else if (form === 'plain') form = 'escaped';
        i = this.escapeEnd(i + 1);
      } else {
        i++;
      }
    }
    this.pos = i + 1;
    if (form === 'lenient') {
      const raw = text.slice(start, this.pos);
      this.edits?.push({ start, end: this.pos, replacement: standardString(raw) });
    }
    return form;
  }

  private escapeEnd(i: number): number {
    const c = this.text[i];
    if (c !== undefined && SIMPLE_ESCAPES.includes(c)) return i + 1;
    if (c === "'" && this.syntax.allowSingleQuotes) return i + 1;
    if (c === 'u' && HEX4.test(this.text.slice(i + 1, i + 5))) return i + 5;
    return this.fail(i);
  }

  private number(): DataType {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail();
    this.pos = NUMBER.lastIndex;
    const integral = m[1] === undefined && m[2] === undefined;
    return integral && Number.isSafeInteger(Number(m[0])) ? LongType : DoubleType;
  }

  private literal(word: string, t: DataType): DataType {
    if (!this.text.startsWith(word, this.pos)) this.fail();
    this.pos += word.length;
    return t;
  }

  private skipSpace(): void {
    const text = this.text;
    let c = text[this.pos];
    while (c === ' ' || c === '\n' || c === '\r' || c === '\t') c = text[++this.pos];
  }

  private consume(c: string): boolean {
    if (this.text[this.pos] !== c) return false;
    this.pos++;
    return true;
  }

  private expect(c: string): void {
    if (!this.consume(c)) this.fail();
  }

  private fail(at = this.pos): never {
    throw new SyntaxErrorAt(at);
  }
}
