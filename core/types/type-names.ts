/**
 * Spark's type names and DDL schema strings: `'int'`, `'array<string>'`, `'map<string,long>'`,
 * `'struct<a:int,b:string>'`, and schemas such as `'ts TIMESTAMP, category STRING, price DOUBLE'`.
 */
import { InvalidOptionError } from '../errors.js';
import {
  ArrayOf,
  BinaryType,
  BooleanType,
  type DataType,
  DateType,
  DoubleType,
  field,
  IntegerType,
  LongType,
  MapOf,
  StringType,
  struct,
  type StructField,
  type StructType,
  TimestampType,
} from './data-types.js';

const ATOMIC: Record<string, DataType> = {
  string: StringType,
  varchar: StringType,
  boolean: BooleanType,
  bool: BooleanType,
  int: IntegerType,
  integer: IntegerType,
  smallint: IntegerType,
  tinyint: IntegerType,
  long: LongType,
  bigint: LongType,
  double: DoubleType,
  float: DoubleType,
  real: DoubleType,
  timestamp: TimestampType,
  date: DateType,
  binary: BinaryType,
};

/** Parses one type name; throws an InvalidOptionError naming the text when it is not a type. */
export function parseTypeName(text: string): DataType {
  const parser = new TypeParser(text);
  const t = parser.type();
  parser.end();
  return t;
}

/** Parses a DDL schema (`'a INT, b STRING NOT NULL'`) into a StructType. */
export function parseSchema(ddl: string): StructType {
  const parser = new TypeParser(ddl);
  const fields = parser.fieldList(' ', null);
  parser.end();
  return struct(fields);
}

class TypeParser {
  private pos = 0;
  constructor(private readonly text: string) {}

  type(): DataType {
    const name = this.word().toLowerCase();
    if (name === 'array') {
      this.expect('<');
      const element = this.type();
      this.expect('>');
      return ArrayOf(element);
    }
    if (name === 'map') {
      this.expect('<');
      const key = this.type();
      this.expect(',');
      const value = this.type();
      this.expect('>');
      return MapOf(key, value);
    }
    if (name === 'struct') {
      this.expect('<');
      const fields = this.fieldList(':', '>');
      this.expect('>');
      return struct(fields);
    }
    const atomic = ATOMIC[name] ?? (name.startsWith('decimal') ? DoubleType : undefined);
    if (!atomic) this.fail(`unknown type '${name}'`);
    if (name.startsWith('decimal') || name === 'varchar') this.skipParenthesized();
    return atomic;
  }

  fieldList(separator: ' ' | ':', closer: string | null): StructField[] {
    const fields: StructField[] = [];
    this.skipSpace();
    while (this.pos < this.text.length && this.text[this.pos] !== closer) {
      const name = this.word();
      this.skipSpace();
      if (separator === ':' || this.text[this.pos] === ':') this.expect(':');
      const t = this.type();
      this.skipSpace();
      const notNull = /^not\s+null/i.exec(this.text.slice(this.pos));
      if (notNull) this.pos += notNull[0].length;
      fields.push(field(name, t, !notNull));
      this.skipSpace();
      if (this.text[this.pos] !== ',') break;
      this.pos++;
      this.skipSpace();
    }
    return fields;
  }

  end(): void {
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(`unexpected '${this.text.slice(this.pos)}'`);
  }

  private word(): string {
    this.skipSpace();
    if (this.text[this.pos] === '`') {
      const close = this.text.indexOf('`', this.pos + 1);
      if (close < 0) this.fail('unclosed backtick');
      const name = this.text.slice(this.pos + 1, close);
      this.pos = close + 1;
      return name;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos));
    if (!m) this.fail('expected a name');
    this.pos += m[0].length;
    return m[0];
  }

  private expect(token: string): void {
    this.skipSpace();
    if (this.text[this.pos] !== token) this.fail(`expected '${token}'`);
    this.pos++;
  }

  private skipParenthesized(): void {
    this.skipSpace();
    if (this.text[this.pos] !== '(') return;
    const close = this.text.indexOf(')', this.pos);
    if (close < 0) this.fail("unclosed '('");
    this.pos = close + 1;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private fail(problem: string): never {
    throw new InvalidOptionError(
      `Invalid type or schema '${this.text}': ${problem} at position ${this.pos}. Example: 'a INT, b STRING' or 'array<string>'.`,
    );
  }
}
