// The `rates` job: every 30 minutes, fetch every tracked tariff's rates incrementally; and the
// day-ahead watch — every 5 minutes from 16:00 to 19:55 Europe/London, while tomorrow's
// half-hours are incomplete for some tracked half-hourly tariff (decided from stored data, see
// src/schedule/dayAheadStatus.ts), the same fetch. A run that stored new or changed rates is
// followed by `reports`. Accounts on Intelligent Octopus Go: every run also refreshes their
// dispatches, and between runs the `dispatches` tick (every 5 minutes at :03, :08 … :58, never on
// :00 or :30 as the platform asks, and only for a config with accounts) refreshes the planned ones
// while a configured account has an Intelligent Octopus Go agreement.
import { ERROR_CODES, TariffsError } from '../errors.js';
import { runIngest } from '../ingest/ingest.js';
import { dayAheadNeedsFetch, dayAheadStatus, type TariffDayAhead } from '../schedule/dayAheadStatus.js';
import type { JobContext, JobDefinition, JobResult, JobSchedule } from '../schedule/Job.js';
import { SchemaError, Warehouse } from '../store/Warehouse.js';
import { ingestContextOf, tracksAnything } from './ingestContext.js';
import { iogAccounts } from '../ingest/ingestDispatches.js';

export const schedules: readonly JobSchedule[] = [
  { key: 'rates', cron: '*/30 * * * *', description: 'every 30 minutes: incremental rates' },
  { key: 'day_ahead', cron: '*/5 16-19 * * *', description: '16:00-19:55 every 5 minutes while tomorrow is incomplete' },
  {
    key: 'dispatches', cron: '3-58/5 * * * *', description: 'every 5 minutes off :00/:30: planned dispatches of Intelligent Octopus Go accounts',
    appliesTo: (config) => config.accounts.length > 0,
  },
];

/** Whether a dispatches tick has anything to ask: a configured account with an Intelligent
 *  Octopus Go agreement stored (the warehouse opened read-only and closed again). */
export async function decideDispatches(ctx: JobContext): Promise<{ fetch: boolean; accounts: string[]; reason: string }> {
  if (ctx.config.accounts.length === 0) return { fetch: false, accounts: [], reason: 'no accounts configured' };
  let warehouse: Warehouse;
  try {
    warehouse = await Warehouse.open(ctx.config.db, { readOnly: true, busyTimeoutMs: ctx.busyTimeoutMs, logger: ctx.logger });
  } catch (error) {
    // no file yet, or an older one: the 30-minute run stores the agreements first
    if (error instanceof SchemaError) return { fetch: false, accounts: [], reason: 'schema needs migrating' };
    if (error instanceof TariffsError && error.code === ERROR_CODES.NO_DATABASE) return { fetch: false, accounts: [], reason: 'no database yet' };
    throw error;
  }
  try {
    const accounts = await iogAccounts(warehouse, ctx.config.accounts);
    return accounts.length > 0
      ? { fetch: true, accounts, reason: `Intelligent Octopus Go: ${accounts.join(', ')}` }
      : { fetch: false, accounts, reason: 'no configured account has an Intelligent Octopus Go agreement' };
  } finally {
    warehouse.close();
  }
}

export interface DayAheadDecision {
  fetch: boolean;
  reason: string;
  tariffs: TariffDayAhead[];
}

/** Whether a watch tick should fetch: from the warehouse, opened read-only and closed again. */
export async function decideDayAhead(ctx: JobContext): Promise<DayAheadDecision> {
  let warehouse: Warehouse;
  try {
    warehouse = await Warehouse.open(ctx.config.db, { readOnly: true, busyTimeoutMs: ctx.busyTimeoutMs, logger: ctx.logger });
  } catch (error) {
    // No file yet, or one an older version wrote: the ingest creates or migrates it.
    if (error instanceof SchemaError) return { fetch: true, reason: 'schema needs migrating', tariffs: [] };
    if (error instanceof TariffsError && error.code === ERROR_CODES.NO_DATABASE) return { fetch: true, reason: 'no database yet', tariffs: [] };
    throw error;
  }
  try {
    const tariffs = await dayAheadStatus(warehouse, ctx.config, ctx.now());
    const short = tariffs.filter((t) => t.state === 'incomplete' || t.state === 'never-fetched');
    const tomorrow = tariffs[0]?.tomorrow;
    return dayAheadNeedsFetch(tariffs)
      ? { fetch: true, reason: `tomorrow (${tomorrow}) incomplete: ${short.map((t) => `${t.tariffCode} ${t.stored}/${t.expected}`).join(', ')}`, tariffs }
      : { fetch: false, reason: `tomorrow (${tomorrow ?? '-'}) complete for every live half-hourly tariff`, tariffs };
  } finally {
    warehouse.close();
  }
}

export async function run(ctx: JobContext): Promise<JobResult> {
  const { config } = ctx;
  if (!tracksAnything(ctx)) {
    return { status: 'skipped', ratesChanged: 0, message: 'nothing tracked: the config lists no tariffs, products or accounts' };
  }
  // A dispatches tick alone refreshes planned dispatches only, and only for IOG accounts.
  if (ctx.triggers.length > 0 && ctx.triggers.every((t) => t === 'dispatches')) {
    const decision = await decideDispatches(ctx);
    if (!decision.fetch) return { status: 'skipped', ratesChanged: 0, message: decision.reason };
    const summary = await runIngest(
      { tariffs: [], products: [], accounts: decision.accounts, useCases: ['dispatches'], dispatchKinds: ['planned'], job: 'rates' },
      ingestContextOf(ctx),
    );
    return {
      status: summary.status, ingestRunId: summary.run_id, ratesChanged: 0,
      details: { dispatches_planned: summary.dispatches_planned, dispatches_superseded: summary.dispatches_superseded, requests: summary.requests },
      ...(summary.warnings.length > 0 ? { message: summary.warnings.join('; ') } : {}),
    };
  }
  // Only a watch tick is conditional; the 30-minute tick (or a manual run) always fetches.
  const watchOnly = ctx.triggers.length > 0 && ctx.triggers.every((t) => t === 'day_ahead');
  let watch: DayAheadDecision | undefined;
  if (watchOnly) {
    watch = await decideDayAhead(ctx);
    ctx.logger.info({ fetch: watch.fetch, reason: watch.reason }, 'day-ahead watch');
    if (!watch.fetch) return { status: 'skipped', ratesChanged: 0, message: watch.reason };
  }
  const summary = await runIngest(
    { tariffs: config.tariffs, products: config.products, accounts: config.accounts, useCases: ['rates', 'accounts', 'dispatches', 'flexibility'], job: 'rates' },
    ingestContextOf(ctx),
  );
  const result: JobResult = {
    status: summary.status,
    ingestRunId: summary.run_id,
    ratesChanged: summary.inserted + summary.updated,
    details: {
      tariffs: summary.tariffs, inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged,
      pages: summary.pages, requests: summary.requests, seconds: summary.seconds,
      ...(watch ? { watch: watch.reason } : {}),
    },
  };
  const notes = [
    ...summary.errors,
    ...summary.missing_optional.map((m) => `missing optional ${m.resource} of ${m.tariff} (${m.status ?? m.code})`),
    ...summary.empty.map((e) => `no ${e.kind} rates for ${e.tariff}${e.hint ? ` (${e.hint})` : ''}`),
  ];
  if (summary.missing_optional.length > 0) result.details!.missing_optional = summary.missing_optional.map((m) => `${m.resource}:${m.tariff}`);
  if (notes.length > 0) result.message = notes.join('; ');
  return result;
}

export const job: JobDefinition = {
  name: 'rates',
  description: 'incremental rates for every tracked tariff, plus the day-ahead watch',
  schedules,
  run,
  followUps: (result) => (result.ratesChanged > 0 ? ['reports'] : []),
};
