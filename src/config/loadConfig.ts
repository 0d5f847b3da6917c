// The one place that reads process.env and the config file: everything else receives a Config.
// Precedence: command-line flags > environment > config file > defaults.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { UsageError } from '../errors.js';

export const DEFAULT_BASE_URL = 'https://api.octopus.energy/v1/';
export const DEFAULT_DB = 'data/tariffs.duckdb';
/** Half an hour, the rates job's period: a stuck run holds the database at most one tick. */
export const DEFAULT_MAX_RUN_SECONDS = 1800;

const scheduleSchema = z.string().min(1);

export const configFileSchema = z.strictObject({
  db: z.string().min(1).optional(),
  base_url: z.string().min(1).optional(),
  tariffs: z.array(z.string().regex(/^[EG]-(1R|2R)-[A-Z0-9-]+-[A-P]$/, 'a tariff code like E-1R-AGILE-24-10-01-C')).optional(),
  products: z.array(z.strictObject({
    code: z.string().min(1),
    regions: z.array(z.string().regex(/^[A-P]$/, 'a region letter A-P')).min(1),
  })).optional(),
  accounts: z.array(z.string().min(1)).optional(),
  default_from: z.string().min(1).optional(),
  lookback_hours: z.number().int().min(0).max(24 * 14).optional(),
  concurrency: z.number().int().min(1).max(32).optional(),
  max_run_seconds: z.number().int().min(0).max(7 * 24 * 3600).optional(),
  schedules: z.strictObject({
    products: scheduleSchema.optional(),
    rates: scheduleSchema.optional(),
    day_ahead: scheduleSchema.optional(),
    reports: scheduleSchema.optional(),
  }).optional(),
  reports: z.strictObject({
    dir: z.string().min(1).optional(),
    formats: z.array(z.enum(['csv', 'parquet', 'html'])).min(1).optional(),
  }).optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

export interface Config {
  db: string;
  baseUrl: string;
  logLevel: string;
  /** Secrets: never logged, never written. */
  apiKey?: string;
  token?: string;
  /** With an API key: 'basic' auth (default) or a 'token' obtained through obtainKrakenToken. */
  authMode: 'basic' | 'token';
  tariffs: string[];
  products: { code: string; regions: string[] }[];
  accounts: string[];
  /** Where a tariff never seen before starts (ISO or plain date); undefined = a default window. */
  defaultFrom?: string;
  lookbackHours: number;
  concurrency: number;
  /** Wall-clock bound of one ingest run; then it stops as on SIGTERM. 0 = unbounded. */
  maxRunSeconds: number;
  schedules: { products?: string; rates?: string; day_ahead?: string; reports?: string };
  reports: { dir: string; formats: ('csv' | 'parquet' | 'html')[] };
  /** The config file the values came from, if any (for error messages). */
  file?: string;
}

export interface ConfigOverrides {
  configFile?: string;
  db?: string;
  baseUrl?: string;
  apiKeyFile?: string;
  logLevel?: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const fileValues = overrides.configFile ? readConfigFile(overrides.configFile) : {};
  const logLevel = overrides.logLevel ?? env.TARIFFS_LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`TARIFFS_LOG_LEVEL: '${logLevel}' is not one of ${LOG_LEVELS.join(', ')}`);
  }
  const config: Config = {
    db: overrides.db ?? env.TARIFFS_DB ?? fileValues.db ?? DEFAULT_DB,
    baseUrl: overrides.baseUrl ?? env.TARIFFS_BASE_URL ?? fileValues.base_url ?? DEFAULT_BASE_URL,
    logLevel,
    authMode: parseAuthMode(env.TARIFFS_AUTH),
    tariffs: fileValues.tariffs ?? [],
    products: fileValues.products ?? [],
    accounts: fileValues.accounts ?? [],
    lookbackHours: fileValues.lookback_hours ?? 48,
    concurrency: fileValues.concurrency ?? 4,
    maxRunSeconds: fileValues.max_run_seconds ?? DEFAULT_MAX_RUN_SECONDS,
    schedules: fileValues.schedules ?? {},
    reports: {
      dir: fileValues.reports?.dir ?? 'data/reports',
      formats: fileValues.reports?.formats ?? ['csv'],
    },
  };
  if (fileValues.default_from !== undefined) config.defaultFrom = fileValues.default_from;
  if (overrides.configFile) config.file = overrides.configFile;
  const apiKey = overrides.apiKeyFile ? readApiKeyFile(overrides.apiKeyFile) : nonEmpty(env.TARIFFS_API_KEY);
  if (apiKey) config.apiKey = apiKey;
  const token = nonEmpty(env.TARIFFS_TOKEN);
  if (token) config.token = token;
  return config;
}

function parseAuthMode(value: string | undefined): 'basic' | 'token' {
  if (value === undefined || value === '' || value === 'basic') return 'basic';
  if (value === 'token') return 'token';
  throw new UsageError(`TARIFFS_AUTH: '${value}' is not one of basic, token`);
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--config ${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config ${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new UsageError(`--config ${file}: ${path}: ${issue.message}`);
  }
  return parsed.data;
}

/** The key file must be private to its owner, like an ssh key: a key others can read is refused. */
export function readApiKeyFile(file: string): string {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    throw new UsageError(`--api-key-file ${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if ((mode & 0o077) !== 0) {
    throw new UsageError(
      `--api-key-file ${file}: readable by group or others (mode ${(mode & 0o777).toString(8)}); run chmod 600 ${file}`,
    );
  }
  const key = readFileSync(file, 'utf8').trim();
  if (!key) throw new UsageError(`--api-key-file ${file}: the file is empty`);
  return key;
}
