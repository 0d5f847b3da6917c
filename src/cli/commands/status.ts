// `tariffs status`: is the warehouse current? Per tracked tariff the latest stored slot, whether
// tomorrow is complete and the gaps of the last 7 days; each job's last run. Opens read-only.
import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT } from '../../errors.js';
import { warehouseStatus } from '../../schedule/warehouseStatus.js';
import type { Config } from '../../config/loadConfig.js';
import { readBusyAttempts } from '../../store/busyAttempts.js';
import { readMarker } from '../../store/processMarker.js';
import { Warehouse } from '../../store/Warehouse.js';
import { jobPaths } from '../../store/WriteSession.js';
import { formatLocal, localMinutesOfDay, parseUserDateTime } from '../../time/index.js';
import type { WarehouseStatus } from '../../schedule/warehouseStatus.js';
import { action } from '../run.js';
import { configFrom, formatOf, loggerFor, withConfig, withDb, withFormat, type CommonFlags } from '../common.js';
import { parsed, seconds, wholeNumber } from '../flagRules.js';
import { render, terminalWidth } from '../output.js';
import { wrapWords } from '../wrapHelp.js';

interface StatusFlags extends CommonFlags {
  now?: Date;
  busyTimeout: number;
  check?: boolean;
  maxMeterAge: number;
}

/** Default of --max-meter-age: the supplier usually delivers yesterday's readings by the morning. */
export const DEFAULT_MAX_METER_AGE_DAYS = 3;

export function configure(command: Command): void {
  command
    .option('--now <when>', 'judge "today" and "tomorrow" as of this instant (ISO 8601) instead of now', parsed('--now', parseUserDateTime))
    .option('--busy-timeout <seconds>', 'how long to wait while a job is writing the database', seconds('--busy-timeout'), 10)
    .option('--check', 'for monitoring: exit 1 (each problem one line on stderr) unless every tracked tariff is current')
    .option('--max-meter-age <days>', "with --check: name an account meter whose newest reading's day is more than this many days before today",
      wholeNumber('--max-meter-age', 1, 3650), DEFAULT_MAX_METER_AGE_DAYS);
  withConfig(withDb(withFormat(command)));
  command.addHelpText('after', `
Tracked tariffs come from the --config file (tariffs, products in their regions, and for accounts
every tariff fetched so far); without one, every tariff with stored rates. JSON output is one
object: {"now", "tariffs": [...], "jobs": [...], "working_file_bytes", "db", "db_from", "running",
"daemon"}: the size of the jobs' working file beside the database (null before any job wrote);
the database file read (absolute) and where its path came from ("--db", "TARIFFS_DB", "config":
the --config file's db, or "default"; TARIFFS_DB outranks the config's db); the job writing the
database now ({job, pid, started_at}, null: none); and the scheduler daemon of this database
({running, pid, started_at}: from the marker \`tariffs schedule\` keeps beside it; running false
with a pid: the daemon was killed). The table shows all of these, and each failed job's error. gaps_7d counts missing
half-hours between the first and the last stored slot of the last 7 local days. missing_optional lists the optional
resources (standing charges, product detail) that the latest attempt could not get, with the HTTP
status; they are asked for again once a day. Each job's row also counts the attempts since its
latest run that found another tariffs job writing (busy_attempts, last_busy_at): they are retried
soon, not failures. Jobs never lock this command out (they write a working file and publish);
exit 75 only if another program holds the database open for writing for longer than --busy-timeout.

--check (for monitoring, e.g. a Nagios or healthchecks probe): exit 0 when all is well, 1 when a
tracked tariff has no rates, is stale (a half-hourly tariff with nothing stored for today), is
quiet (every rate ended before today although its rates URL answered since: rates_stopped_on, the
last rate's day), belongs to a product that left the products list (product_withdrawn_at), has
gaps in the last 7 days, or is missing tomorrow after 20:00 Europe/London (day-ahead prices are
published by then), or when the latest run of a job failed, or its latest attempts found the
database busy, or when an account's meter has stopped reporting (its newest reading's London day
more than --max-meter-age days before today, 3 by default: the supplier usually delivers
yesterday's by the morning); each problem is one line on stderr. JSON output adds "meters": per
meter the view meter_freshness's row as of --now (latest_reading, age_days, holes_7d).`);
  command.action(action(async (flags: StatusFlags) => {
    const config = await configFrom(flags);
    const format = formatOf(flags);
    const now = flags.now ?? new Date();
    const warehouse = await Warehouse.open(config.db, { readOnly: true, logger: await loggerFor(config, flags), busyTimeoutMs: flags.busyTimeout * 1000 });
    let status;
    try {
      status = await warehouseStatus(warehouse, config, now, readBusyAttempts(jobPaths(config.db).busyLog));
    } finally {
      warehouse.close();
    }
    const workingFileBytes = workingFileSize(config.db);
    const paths = jobPaths(config.db);
    const database = { db: resolve(config.db), db_from: dbFrom(config) };
    const writerMarker = readMarker(paths.writer);
    const writer = writerMarker?.alive ? { job: writerMarker.purpose ?? 'write', pid: writerMarker.pid, started_at: writerMarker.started_at } : null;
    const daemonMarker = readMarker(paths.scheduler);
    const daemon = daemonMarker
      ? { running: daemonMarker.alive, pid: daemonMarker.pid, started_at: daemonMarker.started_at }
      : { running: false, pid: null, started_at: null };
    const problems = flags.check ? statusProblems(status, now, { maxMeterAgeDays: flags.maxMeterAge }) : [];
    for (const problem of problems) process.stderr.write(`tariffs: status: ${problem}\n`);
    const exit = problems.length > 0 ? EXIT.FAILURE : EXIT.OK;
    if (format === 'json') {
      const shown = { ...status, working_file_bytes: workingFileBytes, ...database, running: writer, daemon };
      process.stdout.write(`${JSON.stringify(flags.check ? { ...shown, problems } : shown, null, 2)}\n`);
      return exit;
    }
    // A table or CSV cell holds text: "standing_charges (404)".
    const tariffs = status.tariffs.map((t) => ({
      ...t, missing_optional: t.missing_optional.map((m) => `${m.resource} (${m.status ?? 'failed'})`).join(', '),
    }));
    const jobs = status.jobs;
    if (format === 'csv') {
      // Two tables do not make one CSV: the tariffs, then a blank line, then the jobs.
      process.stdout.write(`${render(tariffs, 'csv')}\n${render(jobs, 'csv')}`);
      return exit;
    }
    const width = terminalWidth();
    process.stdout.write(`${databaseLines(config, database.db, writer, daemon)}\n`);
    process.stdout.write(`Tariffs (as of ${wall(now.toISOString())} Europe/London)\n${render(tariffs, 'table')}\nJobs\n${render(jobs, 'table', undefined, width, false, JOB_LAYOUT)}`);
    // the table may shorten an error to fit: each is printed whole below it
    const errors = jobs.filter((j) => j.error !== null && j.error !== '');
    for (const j of errors) {
      process.stdout.write(`${wrapWords(j.error!, Math.max(40, (width ?? 100) - 2), `${j.job} (run ${j.run_id}, ${j.status}): `, '    ').join('\n')}\n`);
    }
    if (status.meters.length > 0) process.stdout.write(`\nMeters\n${render(status.meters, 'table')}`);
    if (workingFileBytes !== null) {
      // named beside the database, not by its whole path: the line fits a narrow terminal
      const folder = basename(dirname(jobPaths(config.db).work));
      process.stdout.write(`\nJobs' working file: ${(workingFileBytes / 1e6).toFixed(1)} MB (${folder}/ beside the database)\n`);
    }
    return exit;
  }));
}

/** A job's row keeps its name, status and error on a narrow terminal (the times give way first). */
const JOB_LAYOUT = { answer: ['job', 'status', 'error'], key: ['finished_at'] };

const DB_FROM = { flag: '--db', env: 'TARIFFS_DB', config: 'config', default: 'default' } as const;

function dbFrom(config: Config): (typeof DB_FROM)[keyof typeof DB_FROM] {
  return DB_FROM[config.dbSource ?? 'default'];
}

const wall = (iso: string) => `${formatLocal(new Date(iso)).slice(0, 16).replace('T', ' ')}`;

/** Which file was read and why, who writes it now, and whether a daemon runs its jobs. */
function databaseLines(
  config: Config, db: string, writer: { job: string; pid: number; started_at: string } | null,
  daemon: { running: boolean; pid: number | null; started_at: string | null },
): string {
  const source = config.dbSource ?? 'default';
  const why = source === 'flag' ? 'from --db'
    : source === 'env' ? 'from TARIFFS_DB'
      : source === 'config' ? `from the db of --config ${config.file}`
        : 'the default: no --db, TARIFFS_DB or config db';
  const outranked = config.dbOutranked !== undefined && config.file !== undefined
    ? `; it outranks the db of --config ${config.file} (${config.dbOutranked})` : '';
  const lines = [`Database: ${db} (${why}${outranked})`];
  lines.push(daemon.running
    ? `Scheduler: running (pid ${daemon.pid}, since ${wall(daemon.started_at!)} Europe/London)`
    : daemon.pid !== null
      ? `Scheduler: not running (its marker names pid ${daemon.pid}, started ${wall(daemon.started_at!)}, which is gone: killed?)`
      : 'Scheduler: not running (no tariffs schedule holds this database)');
  lines.push(writer
    ? `Running now: ${writer.job} (pid ${writer.pid}, since ${wall(writer.started_at)} Europe/London)`
    : 'Running now: no job');
  return lines.join('\n');
}

/** The size of the jobs' working file beside the database (null: none yet). */
function workingFileSize(db: string): number | null {
  try {
    return statSync(jobPaths(db).work).size;
  } catch {
    return null;
  }
}

/** What `status --check` reports, one line each (empty: all is well). */
export function statusProblems(status: WarehouseStatus, now: Date, options: { maxMeterAgeDays?: number } = {}): string[] {
  const problems: string[] = [];
  const evening = localMinutesOfDay(now) >= 20 * 60;
  for (const t of status.tariffs) {
    if (t.product_withdrawn_at !== null) {
      problems.push(`${t.tariff}: its product has left the supplier's products list (seen ${t.product_withdrawn_at}; tariffs products --changes)`);
    }
    if (t.rates_stopped_on !== null) {
      problems.push(`${t.tariff}: quiet: its rates stopped on ${t.rates_stopped_on} although its URL still answers (a retired tariff?)`);
    }
    if (t.state === 'never-fetched' || t.state === 'no-rates') problems.push(`${t.tariff}: no rates stored`);
    else if (t.state === 'not-live') problems.push(`${t.tariff}: stale: nothing stored for today (latest half-hour ${t.latest_slot_local})`);
    else if (t.state === 'incomplete' && evening) problems.push(`${t.tariff}: tomorrow (${t.tomorrow}) incomplete after 20:00: ${t.tomorrow_slots} half-hours`);
    if (t.gaps_7d !== null && t.gaps_7d > 0) problems.push(`${t.tariff}: ${t.gaps_7d} half-hours missing in the last 7 days`);
  }
  const maxAge = options.maxMeterAgeDays ?? DEFAULT_MAX_METER_AGE_DAYS;
  for (const m of status.meters) {
    if (m.account_number === null || m.age_days <= maxAge) continue; // an imported file's meter is not expected to grow
    problems.push(`meter ${m.meter_point}:${m.serial} (account ${m.account_number}): no readings since ${m.latest_local_date} `
      + `(${m.age_days} days, more than ${maxAge}); ${m.holes_7d} half-hours missing in the last 7 days`);
  }
  for (const j of status.jobs) {
    if (j.status === 'failed' || j.status === 'partial') problems.push(`job ${j.job}: the latest run (${j.run_id}) ended ${j.status}${j.error ? `: ${j.error}` : ''}`);
    if (j.busy_attempts > 0) {
      problems.push(`job ${j.job}: ${j.busy_attempts} attempt(s) since its latest run found another tariffs job writing the database (latest ${j.last_busy_at})`);
    }
  }
  return problems;
}
