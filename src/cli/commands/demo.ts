// `tariffs demo`: the whole project offline in one command: the built-in sandbox of recorded real
// prices → a fresh warehouse → a summary on stdout → the reports (CSV, Parquet, HTML).
import type { Command } from 'commander';
import { loadConfig } from '../../config/loadConfig.js';
import { DEMO_DB, DEMO_OUT, runDemo, type DemoProgress } from '../../demo/runDemo.js';
import { formatDemoSummary } from '../formatDemoSummary.js';
import { HTML_FILE } from '../../report/exportReports.js';
import { action } from '../run.js';
import { createProgressBar, createStepBar } from '../progressBar.js';
import { sayOnTerminal } from '../terminal.js';
import { loggerFor, type GlobalFlags } from '../common.js';

interface DemoFlags extends GlobalFlags {
  db?: string;
  out?: string;
}

export function configure(command: Command): void {
  command
    .option('--db <file>', 'DuckDB file to (re)build', DEMO_DB)
    .option('--out <dir>', 'directory for the reports', DEMO_OUT)
    .addHelpText('after', `
Starts the sandbox (data/sandbox/: recorded Agile prices 2017-2021 and 2020-2024, 2025/2026 extracts
around clock changes, variable and day/night rates) on a free port, ingests every tariff it serves
with unit rates from 2017-01-01 into a fresh --db, prints the cheapest 2-hour window of each
tariff's latest complete local day, negative-price statistics and the clock-change days (46 or 50 half-hours), writes the reports
(csv, parquet, ${HTML_FILE}) to --out, and stops the sandbox. No network needed.
--db is rebuilt from scratch each run; a file there that an earlier demo did not write is never
replaced (exit 2). Paths are relative to the current directory. On a terminal each stage is a line
on stderr, with a progress bar while it works; piped, only the summary is printed.`)
    .action(action(async (flags: DemoFlags) => {
      const logger = await loggerFor(await loadConfig(), flags);
      const progress = await demoProgress();
      let result;
      try {
        result = await runDemo({ db: flags.db, outDir: flags.out, logger, ...(progress ? { progress } : {}) });
      } finally {
        progress?.stop();
      }
      const html = result.files.find((f) => f.format === 'html');
      process.stdout.write([
        `tariffs demo: ${result.tariffs.length} sandbox tariffs, ${result.rows} rates → ${result.db}`,
        formatDemoSummary(result.summary),
        `Reports: ${result.files.length} files in ${result.outDir}/ (csv, parquet${html ? `, ${HTML_FILE}: ${html.rows} charts` : ''}); ` +
          `${result.seconds.total} s (ingest ${result.seconds.ingest} s, export ${result.seconds.export} s).`,
        'Next, on this file:',
        ...nextSteps(result.db, result.tariffs).map((c) => `  ${c}`),
        'Then your own tariff: npx tariffs regions --list   (the current Agile product and each region\'s code)',
        '',
      ].join('\n'));
    }));
}

/** On a terminal (stdout and stderr both: piped, the demo prints only its summary), a line per
 *  stage and the bar of the stage at work: the ingest's records, the export's reports and series. */
async function demoProgress(): Promise<(DemoProgress & { stop(): void }) | undefined> {
  if (!(process.stdout.isTTY && process.stderr.isTTY)) return undefined;
  const started = performance.now();
  const ingest = await createProgressBar('ingest');
  const exported = await createStepBar('export', 'steps');
  const summary = await createStepBar('summary', 'steps');
  const stopBars = () => {
    ingest?.stop();
    exported?.stop();
    summary?.stop();
  };
  const elapsed = () => `${(Math.round((performance.now() - started) / 100) / 10).toFixed(1)} s`;
  return {
    stage: (text) => sayOnTerminal(`demo [${elapsed()}]: ${text}…`),
    stageDone: (text) => {
      stopBars();
      sayOnTerminal(`demo [${elapsed()}]: ${text}`);
    },
    ...(ingest ? { ingest } : {}),
    ...(exported ? { export: exported } : {}),
    ...(summary ? { summary } : {}),
    stop: stopBars,
  };
}

/** Three commands that work on the demo's file, printed at its end (and tested). */
export function nextSteps(db: string, tariffs: readonly string[]): string[] {
  const tariff = tariffs.includes(DEMO_TARIFF) ? DEMO_TARIFF : tariffs[0] ?? DEMO_TARIFF;
  const file = /^[\w./-]+$/.test(db) ? db : `'${db.replaceAll("'", "'\\''")}'`;
  return [
    `npx tariffs cheapest --db ${file} --tariff ${tariff} --duration 2h --per-day --from 2024-05-10`,
    `npx tariffs daily --db ${file} --tariff ${tariff} --from 2023-10-28 --to 2023-10-31`,
    `npx tariffs sql --db ${file} "SELECT * FROM daily_stats WHERE local_date = '2024-03-31'"`,
  ];
}

/** Real Agile prices of region J, 2020-2024: the longest recorded series, both clock changes. */
const DEMO_TARIFF = 'E-1R-AGILE-18-02-21-J';
