/**
 * The source and sink settings the construct accepts, checked at synth with the function's own
 * schemas, so a bad setting fails `cdk synth` rather than the first cold start, and the JSON the
 * function receives carries every default explicitly. Values that are CDK tokens (a bucket created
 * in the same stack) are known only at deploy time: they are checked as placeholders and put back
 * after parsing.
 */
import { Token } from 'aws-cdk-lib';
import type * as z from 'zod/mini';
import { InvalidOptionError } from '../core/errors.js';
import {
  type SinkConfig,
  sinkConfigSchema,
  type SourceConfig,
  sourceConfigSchema,
} from '../functions/microbatch/configuration.js';

/** The stream the query reads: the function's `SourceConfig`, with defaulted fields optional. */
export type QuerySource = z.input<typeof sourceConfigSchema>;

/** Where the results go: the function's `SinkConfig`, with defaulted fields optional. */
export type QuerySink = z.input<typeof sinkConfigSchema>;

/** Checks the source and fills in its defaults. */
export function parseSource(source: QuerySource): SourceConfig {
  return parseSetting('source', source, sourceConfigSchema);
}

/** Checks the sink and fills in its defaults. */
export function parseSink(sink: QuerySink): SinkConfig {
  return parseSetting('sink', sink, sinkConfigSchema);
}

function parseSetting<S extends z.ZodMiniType>(
  what: 'source' | 'sink',
  value: z.input<S>,
  schema: S,
): z.output<S> {
  const tokens = new Map<string, string>();
  const checkable = mapStrings(value, (text) => {
    if (!Token.isUnresolved(text)) return text;
    const placeholder = `sluice-cdk-token-${tokens.size}`;
    tokens.set(placeholder, text);
    return placeholder;
  });
  const parsed = schema.safeParse(checkable);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${[what, ...i.path.map(String)].join('.')}: ${i.message}`)
      .join('; ');
    throw new InvalidOptionError(`The ${what} configuration is invalid: ${problems}.`);
  }
  return mapStrings(parsed.data, (text) => tokens.get(text) ?? text) as z.output<S>;
}

/** `value` with every string (in objects and arrays, at any depth) replaced by `f(string)`. */
function mapStrings(value: unknown, f: (text: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}
