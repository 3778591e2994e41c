/**
 * Loads a query module for `sluice run` and `sluice replay`: an ES module whose default export (or
 * export `query`) is a function of a SluiceSession returning the query's `df.writeStream` (its
 * sink and options set), or a streaming DataFrame, which is written to the console. The command
 * sets the checkpoint and trigger. A TypeScript module is loaded through tsx when it is installed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DataFrame, DataStreamWriter, SluiceSession } from '../core/index.js';
import { CliUsageError } from './cli-usage-error.js';

/** What a query module's function returns. */
type QueryModuleResult = DataStreamWriter | DataFrame;

/** The query module at `file`, as a function from a session to the query's writer. */
export async function loadQueryModule(
  file: string,
): Promise<(session: SluiceSession) => DataStreamWriter> {
  const resolved = path.resolve(file);
  if (!existsSync(resolved)) throw new CliUsageError(`query module ${file} does not exist`);
  if (/\.[mc]?ts$/.test(resolved)) await registerTypeScript(file);
  const loaded = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
  const build = loaded.default ?? loaded.query;
  if (typeof build !== 'function') {
    throw new CliUsageError(
      `query module ${file} must export a function (default or 'query') from a SluiceSession to df.writeStream or a DataFrame`,
    );
  }
  return (session) => writerOf(file, (build as (s: SluiceSession) => QueryModuleResult)(session));
}

/** The writer a module's function returned, or the console writer of the DataFrame it returned. */
function writerOf(file: string, result: QueryModuleResult | undefined): DataStreamWriter {
  if (result && 'writeStream' in result) return result.writeStream.format('console');
  if (result && 'start' in result && 'trigger' in result) return result;
  throw new CliUsageError(
    `the function of query module ${file} returned neither df.writeStream nor a DataFrame`,
  );
}

/** Lets `import()` load TypeScript, through tsx's loader. */
async function registerTypeScript(file: string): Promise<void> {
  try {
    const tsx = (await import('tsx/esm/api')) as { register: () => unknown };
    tsx.register();
  } catch (e) {
    throw new CliUsageError(
      `query module ${file} is TypeScript: install tsx (npm install -D tsx) or compile it to JavaScript`,
      { cause: e },
    );
  }
}
