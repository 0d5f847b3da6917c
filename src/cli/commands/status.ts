// `tariffs status`: is the warehouse current? Per tracked tariff the latest stored slot, whether
// tomorrow is complete and the gaps of the last 7 days; each job's last run. Opens read-only.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { warehouseStatus } from '../../schedule/warehouseStatus.js';
import { Warehouse } from '../../store/Warehouse.js';
import { parseUserDateTime } from '../../time/index.js';
import { action } from '../run.js';
import { configFrom, formatOf, loggerFor, withConfig, withDb, withFormat, type CommonFlags } from '../common.js';
import { render } from '../output.js';

interface StatusFlags extends CommonFlags {
  now?: string;
  busyTimeout: string;
}

export function register(program: Command): void {
  const command = program
    .command('status')
    .description("is the warehouse current: each tracked tariff's latest slot, tomorrow, gaps; each job's last run")
    .option('--now <when>', 'judge "today" and "tomorrow" as of this instant (ISO 8601) instead of now')
    .option('--busy-timeout <seconds>', 'how long to wait while a job is writing the database', '10');
  withConfig(withDb(withFormat(command)));
  command.addHelpText('after', `
Tracked tariffs come from the --config file (tariffs, products in their regions, and for accounts
every tariff fetched so far); without one, every tariff with stored rates. JSON output is one
object: {"now", "tariffs": [...], "jobs": [...]}. gaps_7d counts missing half-hours between the
first and the last stored slot of the last 7 local days. missing_optional lists the optional
resources (standing charges, product detail) that the latest attempt could not get, with the HTTP
status; they are asked for again once a day. Exit 75 if a job held the database
for longer than --busy-timeout.`);
  command.action(action(async (flags: StatusFlags) => {
    const config = configFrom(flags);
    const format = formatOf(flags);
    const busySeconds = Number(flags.busyTimeout);
    if (!(Number.isFinite(busySeconds) && busySeconds >= 0)) throw new UsageError(`--busy-timeout: '${flags.busyTimeout}' is not a number of seconds`);
    const now = flags.now === undefined ? new Date() : parseUserDateTime(flags.now, '--now');
    const warehouse = await Warehouse.open(config.db, { readOnly: true, logger: loggerFor(config), busyTimeoutMs: busySeconds * 1000 });
    let status;
    try {
      status = await warehouseStatus(warehouse, config, now);
    } finally {
      warehouse.close();
    }
    if (format === 'json') {
      process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
      return;
    }
    // A table or CSV cell holds text: "standing_charges (404)".
    const tariffs = status.tariffs.map((t) => ({
      ...t, missing_optional: t.missing_optional.map((m) => `${m.resource} (${m.status ?? 'failed'})`).join(', '),
    })) as unknown as Record<string, unknown>[];
    const jobs = status.jobs as unknown as Record<string, unknown>[];
    if (format === 'csv') {
      // Two tables do not make one CSV: the tariffs, then a blank line, then the jobs.
      process.stdout.write(`${render(tariffs, 'csv')}\n${render(jobs, 'csv')}`);
      return;
    }
    process.stdout.write(`Tariffs (as of ${status.now})\n${render(tariffs, 'table')}\nJobs\n${render(jobs, 'table')}`);
  }));
}
