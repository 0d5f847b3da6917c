// Options and plumbing shared by commands: --db, --base-url, --config, --api-key-file, --format,
// the logger. (SIGINT/SIGTERM: signals.ts.)
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config/loadConfig.js';
import { createLogger, type Logger } from '../log/createLogger.js';
import { seconds } from './flagRules.js';
import { terminalLog } from './terminal.js';
import { FORMATS, resolveFormat, type OutputFormat } from './output.js';

/** The program's own flags (-v, --no-color), merged into every command's flags by action()
 *  through commander's optsWithGlobals(). */
export interface GlobalFlags {
  verbose?: boolean;
  /** False with --no-color. */
  color?: boolean;
}

export interface CommonFlags extends GlobalFlags {
  db?: string;
  baseUrl?: string;
  config?: string;
  apiKeyFile?: string;
  format?: string;
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function withDb(command: Command): Command {
  return command.option('--db <file>', 'DuckDB file (env TARIFFS_DB; default data/tariffs.duckdb)');
}

/** How long a writer waits for another tariffs job to finish writing `--db` before exit 75. */
export const WRITER_BUSY_TIMEOUT_SECONDS = 60;

export function withBusyTimeout(command: Command): Command {
  return command.option('--busy-timeout <seconds>',
    'how long to wait while another tariffs job is writing the database, then exit 75',
    seconds('--busy-timeout'), WRITER_BUSY_TIMEOUT_SECONDS);
}

/** --busy-timeout (parsed by its flag) in milliseconds. */
export function busyTimeoutMsOf(flags: { busyTimeout?: number }): number {
  return (flags.busyTimeout ?? WRITER_BUSY_TIMEOUT_SECONDS) * 1000;
}

export function withFormat(command: Command): Command {
  return command.option('--format <format>', `output format: ${FORMATS.join('|')} (default: table on a terminal, else json)`);
}

export function withApi(command: Command): Command {
  return command
    .option('--base-url <url>', 'API base URL (env TARIFFS_BASE_URL; default https://api.octopus.energy/v1/)')
    .option('--api-key-file <file>', 'read the API key from this file (must not be readable by group/others); or set TARIFFS_API_KEY');
}

export function withConfig(command: Command): Command {
  return command.option('--config <file>', 'JSON config file (tracked tariffs, products, accounts, schedules, ...)');
}

export function configFrom(flags: CommonFlags): Promise<Config> {
  return loadConfig({ configFile: flags.config, db: flags.db, baseUrl: flags.baseUrl, apiKeyFile: flags.apiKeyFile });
}

/** On a terminal: warnings and errors, one line each (-v or TARIFFS_LOG_LEVEL for more), above
 *  the progress bar; piped or under cron: JSON lines at info. */
export async function loggerFor(config: Config, flags: GlobalFlags): Promise<Logger> {
  return createLogger({
    pretty: process.stderr.isTTY === true ? (await import('pino-pretty')).default : undefined,
    level: config.logLevel ?? (flags.verbose ? 'info' : undefined),
    color: config.color && flags.color !== false,
    prettyDestination: terminalLog,
  });
}

export function formatOf(flags: CommonFlags): OutputFormat {
  return resolveFormat(flags.format);
}
