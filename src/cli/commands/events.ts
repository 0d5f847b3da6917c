// `tariffs events …`: the platform's events. `catalog` lists every event id the loader accepts,
// with its payload fields; `load` (events file → warehouse) joins it with src/events/loadEvents.ts.
import type { Command } from 'commander';
import { compactFields, describeEventCatalog } from '../../events/describeEventCatalog.js';
import { loadEventCatalog } from '../../events/loadEventCatalog.js';
import { resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';

export function register(program: Command): void {
  const events = program
    .command('events')
    .description('platform events: the catalog of event payloads (<event_type>-<payload_version>)');

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

  // `events load <file|->` goes here: it needs the database (src/events/loadEvents.ts streams
  // validateEventLines() into DuckDB through the appender).
}
