#!/usr/bin/env node
/**
 * The package's command, `npx subagent-actors view <journal or trace>` (see `--help`).
 */
import { runViewCommand } from './cli.js';

const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort());
process.exitCode = await runViewCommand(process.argv.slice(2), { out: process.stdout, err: process.stderr, signal: interrupt.signal });
