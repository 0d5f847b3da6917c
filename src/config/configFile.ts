// The config file: its shape (zod, which names each bad key) and reading it. Loaded by loadConfig
// only when there is a config file to read.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { PAYMENT_METHODS } from '../tariffTerms.js';
import { listed, valueProblems } from './configValues.js';

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
  payment_method: z.enum(PAYMENT_METHODS).optional(),
});

export type ConfigFile = z.infer<typeof fileSchema>;

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
