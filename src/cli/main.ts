#!/usr/bin/env node
// The `tariffs` entry point. Loading the command line takes about half a second (more on a busy
// machine): a SIGTERM or SIGINT that arrives meanwhile would kill the process before the commands
// that stop gracefully (ingest, run, events load) install their handlers, leaving a run recorded
// as running. So such a signal is held first, with nothing else loaded, and handed to them.
import { holdEarlySignals } from './signals.js';

holdEarlySignals(process.argv);
const { main } = await import('./program.js');
await main();
