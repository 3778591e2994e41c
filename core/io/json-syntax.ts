/**
 * The JSON a reader accepts beyond the standard, with Spark's JSON options and defaults. Spark
 * (through Jackson) accepts single-quoted strings and names (`allowSingleQuotes`) and the
 * non-numeric numbers NaN, Infinity, +Infinity, -Infinity, +INF and -INF (`allowNonNumericNumbers`)
 * unless told otherwise; both are implemented. Its other extensions are off by default and are not
 * implemented: turning one on is refused by name, so a reader never silently reads less than asked.
 */
import { InvalidOptionError } from '../errors.js';

/** The extensions of standard JSON a reader accepts. */
export interface JsonSyntax {
  /** Strings and field names in single quotes, and `\'` in any string. */
  readonly allowSingleQuotes: boolean;
  /** Unquoted NaN, Infinity, +Infinity, -Infinity, +INF and -INF as numbers. */
  readonly allowNonNumericNumbers: boolean;
}

/** Standard JSON, as `JSON.parse` reads it. */
export const STRICT_JSON: JsonSyntax = { allowSingleQuotes: false, allowNonNumericNumbers: false };

/** A JSON syntax option's value, as a boolean or as the text 'true' or 'false'. */
type Flag = boolean | string;

/** Spark's JSON syntax options. */
export interface JsonSyntaxOptions {
  /** @default true */
  readonly allowSingleQuotes?: Flag;
  /** @default true */
  readonly allowNonNumericNumbers?: Flag;
  /** Not implemented: only false. @default false */
  readonly allowUnquotedFieldNames?: Flag;
  /** Not implemented: only false. @default false */
  readonly allowNumericLeadingZeros?: Flag;
  /** Not implemented: only false. @default false */
  readonly allowBackslashEscapingAnyCharacter?: Flag;
  /** Not implemented: only false. @default false */
  readonly allowComments?: Flag;
  /** Not implemented: only false. @default false */
  readonly allowUnquotedControlChars?: Flag;
}

const NOT_IMPLEMENTED = [
  'allowUnquotedFieldNames',
  'allowNumericLeadingZeros',
  'allowBackslashEscapingAnyCharacter',
  'allowComments',
  'allowUnquotedControlChars',
] as const;

/** The name of every JSON syntax option, implemented or refused. */
export const JSON_SYNTAX_OPTION_NAMES: readonly (keyof JsonSyntaxOptions)[] = [
  'allowSingleQuotes',
  'allowNonNumericNumbers',
  ...NOT_IMPLEMENTED,
];

/**
 * The syntax `options` ask for, with Spark's defaults. Throws an InvalidOptionError naming `caller`
 * and the option for a value that is not a boolean, or an extension that is not implemented.
 */
export function resolveJsonSyntax(
  options: JsonSyntaxOptions | undefined,
  caller: string,
): JsonSyntax {
  for (const name of NOT_IMPLEMENTED) {
    if (flag(options?.[name], name, false, caller)) {
      throw new InvalidOptionError(
        `${caller}: option ${name}=true is not supported; Sluice's JSON readers accept standard JSON plus single quotes (allowSingleQuotes) and NaN/Infinity (allowNonNumericNumbers). Drop the option, or fix the input.`,
      );
    }
  }
  return {
    allowSingleQuotes: flag(options?.allowSingleQuotes, 'allowSingleQuotes', true, caller),
    allowNonNumericNumbers: flag(
      options?.allowNonNumericNumbers,
      'allowNonNumericNumbers',
      true,
      caller,
    ),
  };
}

/** True when `syntax` accepts anything `JSON.parse` does not. */
export function isLenient(syntax: JsonSyntax): boolean {
  return syntax.allowSingleQuotes || syntax.allowNonNumericNumbers;
}

function flag(value: Flag | undefined, name: string, byDefault: boolean, caller: string): boolean {
  if (value === undefined) return byDefault;
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (text === 'true' || text === 'false') return text === 'true';
  throw new InvalidOptionError(`${caller}: invalid option ${name}='${value}'; use true or false.`);
}
