// The one place that reads process.env and the config file: everything else receives a Config.
// Precedence: command-line flags > environment > config file > defaults.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { ConfigFile } from './configFile.js';
import { listed, valueProblems } from './configValues.js';
import type { PaymentMethod } from '../tariffTerms.js';

export const DEFAULT_BASE_URL = 'https://api.octopus.energy/v1/';
export const DEFAULT_DB = 'data/tariffs.duckdb';
/** MJ/m³: a typical GB calorific value (the supplier's bill shows the one it used). */
export const DEFAULT_CALORIFIC_VALUE = 39.5;
/** Half an hour, the rates job's period: a stuck run holds the database at most one tick. */
export const DEFAULT_MAX_RUN_SECONDS = 1800;



/** Where `db` came from: --db, TARIFFS_DB, the config file's "db", or the default. */
export type DbSource = 'flag' | 'env' | 'config' | 'default';

export interface Config {
  db: string;
  /** Where db came from (tariffs status names it). */
  dbSource?: DbSource;
  /** The config file's "db" when --db or TARIFFS_DB outranked it. */
  dbOutranked?: string;
  baseUrl: string;
  /** TARIFFS_LOG_LEVEL when set; else the logger decides (warn on a terminal, info otherwise). */
  logLevel?: string;
  /** False when NO_COLOR is set (https://no-color.org). */
  color: boolean;
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
  schedules: { products?: string; rates?: string; day_ahead?: string; dispatches?: string; reports?: string };
  reports: { dir: string; formats: ('csv' | 'parquet' | 'html')[] };
  /** `ingest --account` also fetches the account's consumption (config `consumption`, default true). */
  consumption: boolean;
  /** MJ/m³, converts gas meters reporting m³ to kWh (config `gas.calorific_value`). */
  gasCalorificValue: number;
  /** What the API's gas consumption is in (config `gas.unit`): SMETS2 meters report m³. */
  gasUnit: 'm3' | 'kWh';
  /** Which standing charge (and unit rate, where both are quoted) costs use (config `payment_method`). */
  paymentMethod: PaymentMethod;
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

/** Where the config comes from without --config: TARIFFS_CONFIG, else
 *  $XDG_CONFIG_HOME/tariffs/config.json (~/.config/tariffs/config.json) when that file exists. */
export function configFileFrom(env: NodeJS.ProcessEnv): string | undefined {
  const named = nonEmpty(env.TARIFFS_CONFIG);
  if (named) return named;
  const base = nonEmpty(env.XDG_CONFIG_HOME) ?? (nonEmpty(env.HOME) ? join(env.HOME!, '.config') : undefined);
  const file = base ? join(base, 'tariffs', 'config.json') : undefined;
  return file && existsSync(file) ? file : undefined;
}

/** The config: flags over environment over the config file over defaults. Asynchronous because the
 *  config file's validator (zod) is loaded only when there is a file to validate: a command run
 *  without one (most queries) does not pay for loading it. */
export async function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const configFile = overrides.configFile ?? configFileFrom(env);
  const fileValues = configFile ? (await import('./configFile.js')).readConfigFile(configFile) : {};
  const logLevel = overrides.logLevel ?? nonEmpty(env.TARIFFS_LOG_LEVEL);
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`TARIFFS_LOG_LEVEL: '${logLevel}' is not one of ${LOG_LEVELS.join(', ')}`);
  }
  const config: Config = {
    db: overrides.db ?? nonEmpty(env.TARIFFS_DB) ?? fileValues.db ?? DEFAULT_DB,
    baseUrl: overrides.baseUrl ?? env.TARIFFS_BASE_URL ?? fileValues.base_url ?? DEFAULT_BASE_URL,
    color: nonEmpty(env.NO_COLOR) === undefined,
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
    consumption: fileValues.consumption ?? true,
    gasCalorificValue: fileValues.gas?.calorific_value ?? DEFAULT_CALORIFIC_VALUE,
    gasUnit: fileValues.gas?.unit ?? 'm3',
    paymentMethod: fileValues.payment_method ?? 'DIRECT_DEBIT',
  };
  config.dbSource = overrides.db !== undefined ? 'flag' : env.TARIFFS_DB !== undefined ? 'env' : fileValues.db !== undefined ? 'config' : 'default';
  if (fileValues.db !== undefined && config.db !== fileValues.db) config.dbOutranked = fileValues.db;
  if (fileValues.default_from !== undefined) config.defaultFrom = fileValues.default_from;
  if (configFile) config.file = configFile;
  if (logLevel !== undefined) config.logLevel = logLevel;
  const apiKey = overrides.apiKeyFile ? readApiKeyFile(overrides.apiKeyFile) : nonEmpty(env.TARIFFS_API_KEY);
  if (apiKey) config.apiKey = apiKey;
  const token = nonEmpty(env.TARIFFS_TOKEN);
  if (token) config.token = token;
  checkValues(config, fileValues, overrides.baseUrl !== undefined ? '--base-url' : env.TARIFFS_BASE_URL !== undefined ? 'TARIFFS_BASE_URL' : 'base_url');
  return config;
}

/** Values that parse but must also mean something — the base URL, default_from, each schedule —
 *  checked now, every problem listed, so that nothing starts with a config that will fail later. */
function checkValues(config: Config, file: ConfigFile, baseUrlSource: string): void {
  const problems = valueProblems({ ...file, base_url: config.baseUrl }, baseUrlSource);
  if (problems.length === 0) return;
  throw new UsageError(config.file ? listed(`--config ${config.file}`, problems) : problems.join('\n  '));
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

export type { ConfigFile } from './configFile.js';
