/**
 * The `sluice` program: its commands, and how a failure is printed. A failure is one line on stderr
 * that says what happened and what to do (the message of Sluice's typed errors, which say both);
 * usage errors exit with status 2, other failures with 1. `--help` works on every command.
 */
import { Command, CommanderError } from 'commander';
import { SluiceError } from '../core/index.js';
import { CliUsageError } from './cli-usage-error.js';
import { addHistoryCommand } from './history-command.js';
import { addReplayCommand } from './replay-command.js';
import { addRunCommand } from './run-command.js';
import { addStateCommand } from './state-command.js';
import { addStatusCommand } from './status-command.js';

/** The program, with every command. */
export function sluiceProgram(version: string): Command {
  const program = new Command('sluice')
    .description('Run and inspect Sluice streaming queries')
    .version(version)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  addRunCommand(program);
  addStatusCommand(program);
  addStateCommand(program);
  addReplayCommand(program);
  addHistoryCommand(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the program on `argv` (process.argv's form) and returns the exit status. */
export async function runSluice(argv: readonly string[], version: string): Promise<number> {
  try {
    await sluiceProgram(version).parseAsync(argv);
    return 0;
  } catch (e) {
    return failureStatus(e);
  }
}

/** Prints a failure as one line and returns its exit status. */
function failureStatus(e: unknown): number {
  // commander has printed its own message (or the help/version it was asked for)
  if (e instanceof CommanderError) return e.exitCode;
  if (e instanceof CliUsageError) {
    process.stderr.write(`sluice: ${e.message} (add --help for usage)\n`);
    return 2;
  }
  if (e instanceof SluiceError) {
    process.stderr.write(`sluice: ${e.message}\n`);
    return 1;
  }
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`sluice: ${message} (unexpected; set SLUICE_DEBUG=1 for the stack)\n`);
  if (process.env.SLUICE_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  return 1;
}
