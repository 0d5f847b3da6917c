// The one place that reads process.env and the config file: everything else receives a Config.
// Precedence: command-line flags > environment > config file > defaults.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { normaliseBaseUrl } from '../api/urls.js';
import { UsageError } from '../errors.js';
import { parseCron } from '../cron/fireTimes.js';
import { parseUserDateTime } from '../time/index.js';

export const DEFAULT_BASE_URL = 'https://api.octopus.energy/v1/';
export const DEFAULT_DB = 'data/tariffs.duckdb';
/** MJ/m³: a typical GB calorific value (the supplier's bill shows the one it used). */
export const DEFAULT_CALORIFIC_VALUE = 39.5;
/** Half an hour, the rates job's period: a stuck run holds the database at most one tick. */
export const DEFAULT_MAX_RUN_SECONDS = 1800;

const scheduleSchema = z.string().min(1);

/** The config file's shape (zod: the one that names each bad key). */
const fileSchema = z.strictObject({
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
    dispatches: scheduleSchema.optional(),
    reports: scheduleSchema.optional(),
  }).optional(),
  reports: z.strictObject({
    dir: z.string().min(1).optional(),
    formats: z.array(z.enum(['csv', 'parquet', 'html'])).min(1).optional(),
  }).optional(),
  consumption: z.boolean().optional(),
  gas: z.strictObject({
    calorific_value: z.number().min(30).max(50).optional(),
    unit: z.enum(['m3', 'kWh']).optional(),
  }).optional(),
  payment_method: z.enum(['DIRECT_DEBIT', 'NON_DIRECT_DEBIT']).optional(),
});

export type ConfigFile = z.infer<typeof fileSchema>;

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
  paymentMethod: 'DIRECT_DEBIT' | 'NON_DIRECT_DEBIT';
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

export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const configFile = overrides.configFile ?? configFileFrom(env);
  const fileValues = configFile ? readConfigFile(configFile) : {};
  const logLevel = overrides.logLevel ?? nonEmpty(env.TARIFFS_LOG_LEVEL);
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel)) {
    throw new UsageError(`TARIFFS_LOG_LEVEL: '${logLevel}' is not one of ${LOG_LEVELS.join(', ')}`);
  }
  const config: Config = {
    db: overrides.db ?? env.TARIFFS_DB ?? fileValues.db ?? DEFAULT_DB,
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

function valueProblems(values: { base_url?: unknown; default_from?: unknown; schedules?: unknown }, baseUrlSource = 'base_url'): string[] {
  const problems: string[] = [];
  const attempt = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      problems.push((error as Error).message);
    }
  };
  if (typeof values.base_url === 'string') attempt(() => normaliseBaseUrl(values.base_url as string, baseUrlSource));
  if (typeof values.default_from === 'string') attempt(() => parseUserDateTime(values.default_from as string, 'default_from'));
  if (values.schedules && typeof values.schedules === 'object') {
    for (const [key, expression] of Object.entries(values.schedules)) {
      if (typeof expression === 'string' && expression.trim() !== 'off') attempt(() => parseCron(expression.trim(), `schedules.${key}`));
    }
  }
  return problems;
}

function listed(where: string, problems: string[]): string {
  return `${where}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n  ${problems.join('\n  ')}`}`;
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
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    // Every problem at once, each with its key: fixing a config should not take one run per error.
    const problems = parsed.error.issues.map((issue) => {
      const path = issue.path.length ? issue.path.join('.') : '(top level)';
      return `${path}: ${issue.message}`;
    });
    if (json && typeof json === 'object') problems.push(...valueProblems(json as Record<string, unknown>));
    throw new UsageError(listed(`--config ${file}`, problems));
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
