// Every command of the CLI, in the order `tariffs --help` lists them.
import type { Command } from 'commander';
import { register as analytics } from './analytics.js';
import { register as consumption } from './consumption.js';
import { register as cost } from './cost.js';
import { register as demo } from './demo.js';
import { register as events } from './events.js';
import { register as exportCommand } from './export.js';
import { register as ingest } from './ingest.js';
import { register as run } from './run.js';
import { register as sandbox } from './sandbox.js';
import { register as schedule } from './schedule.js';
import { register as sql } from './sql.js';
import { register as status } from './status.js';

export type Register = (program: Command) => void;

export const commands: Register[] = [ingest, sql, analytics, consumption, cost, events, sandbox, schedule, run, status, exportCommand, demo];
