#!/usr/bin/env node
/**
 * The `sluice` command (package.json "bin"): runs the program (program.ts) on the process's
 * arguments, then exits with its status.
 */
import { existsSync, readFileSync } from 'node:fs';
import { runSluice } from './program.js';

// package.json is one folder up from cli/sluice.ts, and two from the built lib/cli/sluice.js
const manifest = ['../package.json', '../../package.json']
  .map((p) => new URL(p, import.meta.url))
  .find((url) => existsSync(url));
const version = manifest
  ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
  : 'unknown';

process.exitCode = await runSluice(process.argv, version);
