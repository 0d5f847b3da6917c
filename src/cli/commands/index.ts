// Every command of the CLI, in the order `tariffs --help` lists them: its name and summary, and the
// module that defines the rest. The one place modules are loaded lazily: program.ts loads the
// module of the command it runs, and none for the program's own help or version; a command loads
// the progress bar's drawing (cli-progress) only when it draws one (loadTerminalBar).
import type { Command } from 'commander';

/** What a command module exports: fills in the command program.ts made (its flags, help, action). */
export type Configure = (command: Command) => void;

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** After the name in the program's help: `[options]`, `[options] <query>`, or '' for a group. */
  readonly usage: string;
  readonly load: () => Promise<{ configure: Configure }>;
}

/** The progress bar's drawing and its package, for a command about to draw a bar (progressBar.ts). */
export const loadTerminalBar = () => import('../terminalBar.js');

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'ingest', usage: '[options]', load: () => import('./ingest.js'),
    summary: 'fetch products and tariff rates into the DuckDB warehouse (incremental, idempotent)',
  },
  { name: 'sql', usage: '[options] <query>', load: () => import('./sql.js'), summary: 'run a read-only SQL query against the warehouse' },
  { name: 'products', usage: '[options]', load: () => import('./products.js'), summary: 'list the products stored in the warehouse, or (--changes) what appeared and left' },
  {
    name: 'tariffs', usage: '[options]', load: () => import('./tariffs.js'),
    summary: 'list the tariffs stored in the warehouse, with their rate coverage',
  },
  {
    name: 'migrate', usage: '[options]', load: () => import('./migrate.js'),
    summary: 'create or upgrade the warehouse schema (ingest does this too)',
  },
  {
    name: 'cheapest', usage: '[options]', load: () => import('./cheapest.js'),
    summary: 'the cheapest (or --highest) run of contiguous half-hours of a tariff (overall, per local day or per nightly band)',
  },
  {
    name: 'slots', usage: '[options]', load: () => import('./slots.js'),
    summary: 'the N cheapest (or --highest) half-hours of a tariff in a range (adjacent or not), in time order',
  },
  {
    name: 'negative', usage: '[options]', load: () => import('./negative.js'),
    summary: 'when prices were negative: the half-hours, or with --runs the contiguous stretches',
  },
  {
    name: 'off-peak', usage: '[options]', load: () => import('./offPeak.js'),
    summary: 'off-peak periods of two- and three-rate tariffs (Go, Intelligent Go, Cosy-like, four-rate EV): runs at the day\'s lowest rate',
  },
  {
    name: 'daily', usage: '[options]', load: () => import('./daily.js'),
    summary: 'each Europe/London local day: half-hours stored and expected, min/max/mean/median/p10/p90, negatives, peak',
  },
  {
    name: 'monthly', usage: '[options]', load: () => import('./monthly.js'),
    summary: 'each Europe/London calendar month: days and half-hours stored, price spread, negatives, peak',
  },
  {
    name: 'regions', usage: '[options]', load: () => import('./regions.js'),
    summary: "a product's tariffs region by region: coverage, price spread, negatives, rank of the mean; --list: region letters, tariff codes, the current Agile product",
  },
  {
    name: 'gaps', usage: '[options]', load: () => import('./gaps.js'),
    summary: 'half-hours missing from half-hourly series, per local day (no rows = no gaps)',
  },
  {
    name: 'consumption', usage: '', load: () => import('./consumption.js'),
    summary: 'metered consumption: import the supplier\'s CSV export, or a long CSV/Parquet file of many meters (the API is read by `ingest --account`)',
  },
  {
    name: 'agreements', usage: '', load: () => import('./agreements.js'),
    summary: 'which tariff each meter is on when: import a CSV or Parquet file of agreements (the API is read by `ingest --account`)',
  },
  {
    name: 'cost', usage: '[options]', load: () => import('./cost.js'),
    summary: "what a meter's consumption cost at its agreements (or would have cost on --tariff), per half-hour, day or month",
  },
  {
    name: 'compare', usage: '[options]', load: () => import('./compare.js'),
    summary: "a meter's consumption priced at its agreements and at each --tariff, side by side (default: the last 12 complete months)",
  },
  {
    name: 'events', usage: '', load: () => import('./events.js'),
    summary: 'platform events: the catalog of event payloads (<event_type>-<payload_version>), loading them',
  },
  {
    name: 'sandbox', usage: '[options]', load: () => import('./sandbox.js'),
    summary: 'serve a local, offline copy of the supplier REST interface (recorded real prices)',
  },
  {
    name: 'schedule', usage: '[options]', load: () => import('./schedule.js'),
    summary: 'run the jobs on their schedules until SIGTERM (or --list their next fire times)',
  },
  {
    name: 'run', usage: '[options] <job>', load: () => import('./run.js'),
    summary: 'run one scheduled job once (for system cron or a systemd timer)',
  },
  {
    name: 'status', usage: '[options]', load: () => import('./status.js'),
    summary: "is the warehouse current: each tracked tariff's latest slot, tomorrow, gaps; each job's last run",
  },
  {
    name: 'export', usage: '[options]', load: () => import('./export.js'),
    summary: 'write the reports (daily/monthly statistics, cheapest windows, negative prices; monthly costs and tariff comparisons when consumption is stored) as CSV, Parquet or HTML',
  },
  {
    name: 'demo', usage: '[options]', load: () => import('./demo.js'),
    summary: 'offline demo: ingest the built-in sandbox into a fresh warehouse, summarise, export the reports',
  },
];
