#!/usr/bin/env node
// The `tariffs` entry point. A SIGTERM or SIGINT that arrives while the command line loads would
// kill the process before the commands that stop gracefully (ingest, run, events load) install
// their handlers, leaving a run recorded as running: such a signal is held first, with nothing
// else loaded, and handed to them (signals.ts).
import { holdEarlySignals } from './signals.js';

holdEarlySignals(process.argv);
const { main } = await import('./program.js');
await main();
