// `tariffs events …`: the platform's events. `catalog` lists every event id the loader accepts,
// with its payload fields; `load` streams an events file (or stdin) into the warehouse.
import { InvalidArgumentError, type Command } from 'commander';
import { EXIT, UsageError } from '../../errors.js';
import { compactFields, describeEventCatalog } from '../../events/describeEventCatalog.js';
import { loadEventCatalog } from '../../events/loadEventCatalog.js';
import { LOAD_DEFAULTS, loadEvents, type LoadSummary } from '../../events/loadEvents.js';
import { openEventInput } from '../../events/openEventInput.js';
import { WriteSession } from '../../store/WriteSession.js';
import { busyTimeoutMsOf, configFrom, loggerFor, withBusyTimeout, withDb, type CommonFlags } from '../common.js';
import { exitCodeOfSignal, interruptSignal } from '../signals.js';
import { render, resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';

/** DuckDB's buffer pool while loading: ample for a batch and the anti-join's hash table. */
const LOAD_MEMORY_LIMIT = '256MB';

export function configure(events: Command): void {
  events
    .command('catalog')
    .description('list every event id with its payload fields (JSON: structures expanded)')
    .option('--format <format>', 'table, csv or json (default: table on a terminal, json when piped)')
    .action(
      action((options: { format?: string }) => {
        const format = resolveFormat(options.format);
        const catalog = loadEventCatalog();
        if (format === 'json') {
          writeRows(describeEventCatalog(catalog).map((event) => ({ ...event })), format);
          return;
        }
        const rows = [...catalog.events.values()].map((spec) => ({
          id: spec.id,
          catalog: spec.catalog,
          fields: compactFields(spec.fields, spec.partial),
        }));
        writeRows(rows, format, ['id', 'catalog', 'fields']);
      }),
    );

  const load = events
    .command('load')
    .description('validate a JSON Lines file of events and store it: valid events in events, bad lines in event_rejects')
    .argument('<file>', "events file, one JSON event a line, or '-' for stdin")
    .option('--format <format>', 'summary as table or json (default: table on a terminal, json when piped)')
    .option('--batch-size <lines>', `lines per transaction (default ${LOAD_DEFAULTS.batchSize})`, positiveInteger('--batch-size'))
    .option('--stats', 'add lines, seconds, lines_per_second and max_rss_mb to the summary');
  withBusyTimeout(withDb(load));
  load.addHelpText('after', `
Each line: {"id"?, "event_type", "payload_version", "occurred_at"?, "payload"}, checked against the
catalog entry <event_type>-<payload_version> (see \`tariffs events catalog\`). A line whose id is
already stored, or appears earlier in the input, is a duplicate and skipped; lines without an id
are never duplicates. Invalid lines are stored in event_rejects with their errors.
The summary (stdout): {"accepted", "duplicates", "rejected", "errors": [{"line", "code", "attr",
"scope", "detail"}]}, errors capped at ${LOAD_DEFAULTS.maxErrors} (then "errors_truncated": true and "errors_total").
Progress is logged on stderr. Exit status: 0 nothing rejected, 1 some lines rejected (the valid
ones are stored) or a failure, 2 bad usage (e.g. no such file), 75 another process is writing the
database, 130/143 interrupted (the batches stored are kept: re-run to continue).`);
  load.action(
    action(async (file: string, flags: LoadFlags) => {
      const format = resolveFormat(flags.format);
      if (format !== 'table' && format !== 'json') throw new UsageError(`--format: '${format}' is not one of table, json`);
      const config = await configFrom(flags);
      const logger = (await loggerFor(config, flags)).child({ job: 'events-load' });
      const input = await openEventInput(file);
      const session = await WriteSession.open(config.db, { logger, busyTimeoutMs: busyTimeoutMsOf(flags), purpose: 'events-load' })
        .catch((error: unknown) => {
          input.stream.destroy();
          throw error;
        });
      const warehouse = session.warehouse;
      const interrupt = interruptSignal(logger);
      try {
        // Without a limit DuckDB keeps every block it writes cached (up to 80% of RAM), so the
        // process would grow with the file; capped, it evicts them and memory stays flat.
        await warehouse.run(`SET memory_limit = '${LOAD_MEMORY_LIMIT}'`);
        const started = performance.now();
        const result = await loadEvents(warehouse, input.stream, {
          source: input.source,
          logger,
          signal: interrupt.signal,
          ...(flags.batchSize === undefined ? {} : { batchSize: flags.batchSize }),
        });
        const output: Record<string, unknown> = { ...result.summary };
        if (flags.stats) {
          const seconds = (performance.now() - started) / 1000;
          output.stats = {
            lines: result.lines,
            seconds: Number(seconds.toFixed(3)),
            lines_per_second: Math.round(result.lines / Math.max(seconds, 1e-3)),
            max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
          };
        }
        await session.publish();
        writeLoadSummary(output, format);
        const signal = interrupt.received();
        if (signal) return exitCodeOfSignal(signal);
        return result.summary.rejected > 0 ? EXIT.FAILURE : EXIT.OK;
      } finally {
        interrupt.dispose();
        input.stream.destroy();
        session.close();
      }
    }),
  );
}

interface LoadFlags extends CommonFlags {
  busyTimeout?: number;
  batchSize?: number;
  stats?: boolean;
}

function positiveInteger(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${flag} must be a positive integer`);
    return n;
  };
}

/** JSON: the summary object. Table: the counts, then one row per error listed. */
function writeLoadSummary(output: Record<string, unknown>, format: 'table' | 'json'): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return;
  }
  const { errors, errors_truncated: truncated, errors_total: total, stats, ...counts } = output;
  let text = render([{ ...counts, ...(stats as Record<string, unknown> | undefined) }], 'table');
  const list = errors as LoadSummary['errors'];
  if (list.length > 0) text += `\n${render(list, 'table', ['line', 'code', 'attr', 'scope', 'detail'])}`;
  if (truncated) text += `(${Number(total) - list.length} more errors not listed: see event_rejects)\n`;
  process.stdout.write(text);
}
