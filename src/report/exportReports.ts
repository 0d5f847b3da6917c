// exportReports: the reports of README.md (section Exports) written to a directory as CSV, Parquet and/or
// one self-contained HTML page. Opens the warehouse read-only and closes it; every file is written
// atomically; the same data give byte-identical files. `tariffs export`, `tariffs demo` and the
// scheduler's reports job call this.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { TariffsError, UsageError } from '../errors.js';
import { silentLogger } from '../log/createLogger.js';
import { Warehouse } from '../store/Warehouse.js';
import { copyToFile, type TableFormat } from './copyToFile.js';
import { resolveScope, scopeParams } from './exportScope.js';
import { inTariffs } from '../analytics/scopeSql.js';
import type { DuckDBValue } from '@duckdb/node-api';
import { HTML_LIMITS, priceSections, queryHtmlData, renderHtmlReport, type HtmlReport } from './html/buildHtmlReport.js';
import { costData } from './html/costCharts.js';
import { chartLibraries } from './html/renderSvg.js';
import { COST_REPORTS, inCostWindow, prepareCostScope } from './costReports.js';
import { REPORTS, type ReportDefinition } from './reports.js';
import { temporaryPathFor, writeAtomically } from './writeAtomically.js';

export type ExportFormat = 'csv' | 'parquet' | 'html';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'parquet', 'html'];
export const HTML_FILE = 'report.html';

export interface ExportReportsOptions {
  db: string;
  outDir: string;
  formats: ExportFormat[];
  /** Default: every tariff with half-hourly prices (in the window). */
  tariffs?: string[];
  /** Half-hours starting in [from, to); days and months are those of the local dates in it. */
  from?: Date;
  to?: Date;
  logger?: Logger;
  /** Wait this long for a process writing the database (default 30 s), then DatabaseBusyError. */
  busyTimeoutMs?: number;
  /** Standing charges (and unit rates quoted both ways) of the cost reports; default DIRECT_DEBIT. */
  paymentMethod?: 'DIRECT_DEBIT' | 'NON_DIRECT_DEBIT';
  /** Told each report and each section of the HTML page as it is written (a progress bar). */
  progress?: ExportProgress;
  /** The file already open (the demo's, shared with its summary): read, not closed, here. */
  warehouse?: Warehouse;
}

/** How an export tells its progress: steps are the CSV/Parquet reports (each in every format),
 *  the HTML page's queries and its sections (a price series or a meter's costs). */
export interface ExportProgress {
  /** More steps to come: the reports first, the page's sections once its data are read. */
  expect(steps: number): void;
  /** What is being worked on now. */
  working(what: string): void;
  done(steps?: number): void;
}

export interface ExportedFile {
  /** outDir joined with the file name. */
  path: string;
  /** Data rows (CSV/Parquet) or charts (HTML). */
  rows: number;
  format: ExportFormat;
}

export class ExportDirectoryError extends TariffsError {
  override readonly name = 'ExportDirectoryError';
  readonly dir: string;
  constructor(dir: string, reason: string, options: { cause?: unknown } = {}) {
    super('EXPORT_DIR', `cannot write reports to ${dir}: ${reason}`, options);
    this.dir = dir;
  }
}

export async function exportReports(options: ExportReportsOptions): Promise<{ files: ExportedFile[] }> {
  const logger = options.logger ?? silentLogger();
  const formats = checkFormats(options.formats);
  prepareDirectory(options.outDir);
  const started = performance.now();
  const { progress } = options;
  // a first step, so that a bar shows while the file opens and the scope is worked out
  progress?.expect(1);
  progress?.working(`opening ${options.db}`);
  const warehouse = options.warehouse ?? await Warehouse.open(options.db, {
    readOnly: true, logger, busyTimeoutMs: options.busyTimeoutMs ?? 30_000, ...exportThreads(formats),
  });
  try {
    const scope = await resolveScope(warehouse, options);
    logger.info({ tariffs: scope.tariffs.length, formats, dir: options.outDir, duckdb_threads: Number((await warehouse.one("SELECT current_setting('threads') AS n"))!.n) }, 'export: starting');
    const params = {
      ...scopeParams(scope), payment: options.paymentMethod ?? 'DIRECT_DEBIT',
      cost_from: options.from?.toISOString() ?? null, cost_to: options.to?.toISOString() ?? null,
    };
    const files: ExportedFile[] = [];
    const tableFormats = formats.filter((f): f is TableFormat => f !== 'html');
    const html = formats.includes('html');
    // Every step is counted before the first is done, so that a bar only moves forward: the
    // sections and meters as counted here are at least those the page and the reports find, and
    // the count is lowered (never raised) once they are known.
    const planned = progress ? await plannedSteps(warehouse, params) : { series: 0, meters: 0 };
    let counted = 0;
    const count = (series: number, meters: number) => {
      const steps = (html ? 5 + series + 2 * meters : 0)
        + (tableFormats.length === 0 ? 0 : REPORTS.length + (meters > 0 ? COST_REPORTS.length : 0));
      progress?.expect(steps - counted);
      counted = steps;
    };
    count(planned.series, planned.meters);
    // The page's price data are read first, and its charts (JavaScript, the main thread) drawn
    // while DuckDB writes the price reports. The costs are worked out meanwhile on a second
    // connection (the cost reports read its temp tables there), and the cost charts drawn last,
    // once their data are read. One connection runs one statement at a time: on one, the costs
    // waited for the page's queries and the reports for the costs (the demo's export: 1.1 s of
    // costs alone took 3.1 s beside the charts and the summary).
    const chartProgress = progress && {
      ...progress, expect: () => undefined, working: (what: string) => progress.working(`${HTML_FILE}: ${what}`),
    };
    const costWarehouse = await warehouse.another();
    let meters = planned.meters;
    let series = planned.series;
    const costs = (async () => {
      meters = await prepareCostScope(costWarehouse, params, { comparison: tableFormats.length > 0 });
      count(series, meters);
      return html && meters > 0 ? await costData(costWarehouse, params, chartProgress) : [];
    })();
    costs.catch(() => undefined); // awaited below; not unhandled meanwhile
    let page: Promise<HtmlReport> | undefined;
    // the charts' libraries load (~0.3 s of the main thread) while the page's data are read
    if (html) chartLibraries().catch(() => undefined);
    try {
      // The reports the page also reads (its days, their cheapest windows) are made first; the page
      // reads their rows, and their files are written from them later.
      const made = new Map<string, string>();
      if (html && tableFormats.length > 0) {
        for (const name of PAGE_REPORTS) {
          const report = REPORTS.find((r) => r.name === name)!;
          await makeReport(warehouse, report, `export_${name}`, params);
          made.set(name, `export_${name}`);
        }
      }
      const tables = { daily: made.get(PAGE_REPORTS[0]), windows: made.get(PAGE_REPORTS[1]) };
      const data = html ? await queryHtmlData(warehouse, scope, undefined, chartProgress, tables) : undefined;
      if (data) {
        series = priceSections(data);
        count(series, meters);
        // Awaited later (the page's cost sections are drawn last); a failure of the costs is thrown
        // below, never left unhandled meanwhile (Node would end the process on it).
        page = renderHtmlReport({ ...data, costs }, logger, chartProgress ? { progress: chartProgress } : {});
        page.catch(() => undefined);
      }
      progress?.done();
      const write = { params, outDir: options.outDir, formats: tableFormats, logger, ...(progress ? { progress } : {}) };
      const written = await Promise.allSettled([
        tableFormats.length === 0 ? [] : writeReports(warehouse, REPORTS, write, made),
        costs.then(() => (tableFormats.length === 0 || meters === 0 ? [] : writeReports(costWarehouse, COST_REPORTS, write))),
      ]);
      for (const chain of written) if (chain.status === 'rejected') throw chain.reason;
      for (const chain of written) if (chain.status === 'fulfilled') files.push(...chain.value);
    } finally {
      await costs.catch(() => undefined); // its statements end before its connection closes
      costWarehouse.close();
    }
    if (page) {
      const path = join(options.outDir, HTML_FILE);
      const report = await page;
      await writeAtomically(path, async (tmp) => writeFileSync(tmp, report.html));
      files.push({ path, rows: report.charts, format: 'html' });
      logger.info({ file: path, charts: report.charts, bytes: Buffer.byteLength(report.html) }, 'export: file written');
    }
    logger.info({ files: files.length, ms: Math.round(performance.now() - started) }, 'export: done');
    return { files };
  } finally {
    if (!options.warehouse) warehouse.close();
  }
}

/** The reports whose rows the HTML page reads too: its days and their cheapest windows. */
const PAGE_REPORTS = ['daily_stats', `cheapest_${HTML_LIMITS.cheapestSlots / 2}h_per_day`] as const;

/** A report's rows computed once into temp table `table` of `on`'s connection. */
async function makeReport(on: Warehouse, report: ReportDefinition, table: string, params: Record<string, DuckDBValue>): Promise<void> {
  await on.run(`CREATE OR REPLACE TEMP TABLE ${table} AS ${report.query}`, params).catch((error: unknown) => {
    throw new TariffsError('EXPORT_QUERY', `report ${report.name}: ${(error as Error).message}`, { cause: error });
  });
}

/** Each report computed once into a temp table of `on`'s connection (or the table `made` names,
 *  made before), then copied to each format; the table is dropped once written. */
async function writeReports(
  on: Warehouse, reports: readonly ReportDefinition[],
  { params, outDir, formats, logger, progress }: { params: Record<string, DuckDBValue>; outDir: string; formats: TableFormat[]; logger: Logger; progress?: ExportProgress },
  made: ReadonlyMap<string, string> = new Map(),
): Promise<ExportedFile[]> {
  const written: ExportedFile[] = [];
  for (const report of reports) {
    const started = performance.now();
    progress?.working(report.name);
    const table = made.get(report.name) ?? 'export_rows';
    if (!made.has(report.name)) await makeReport(on, report, table, params);
    const instants = await instantColumns(on, table);
    for (const format of formats) {
      const path = join(outDir, `${report.name}.${format}`);
      const rows = await copyToFile(on, selectRows(table, format, instants), {}, path, format);
      written.push({ path, rows, format });
    }
    await on.run(`DROP TABLE ${table}`);
    progress?.done();
    logger.info({ report: report.name, formats, rows: written.at(-1)!.rows, ms: Math.round(performance.now() - started) }, 'export: report written');
  }
  return written;
}

/**
 * DuckDB's threads for an export of `formats`: with the HTML page, one core fewer than the machine
 * has, since the main thread spends the export drawing charts (and the costs and the price reports
 * run side by side on two connections); without it, DuckDB's default (every core). On 2 cores,
 * DuckDB's second thread only took turns with the charts: `tariffs export --format
 * csv,parquet,html` of the demo's warehouse, alternated, four runs each: 4.80/4.48/4.59/4.65 s wall
 * and 7.9-8.3 CPU-s with 2 threads, 4.31/4.35/4.51/4.44 s and 7.3-7.7 CPU-s with 1; `tariffs demo`'s
 * export and summary (one instance), five pairs: 6.05/6.28/6.30/5.33/4.23 s -> 5.90/6.03/4.87/4.70/4.01 s.
 */
export function exportThreads(formats: readonly string[], cores = availableParallelism()): { threads?: number } {
  return formats.includes('html') ? { threads: Math.max(1, cores - 1) } : {};
}

/** What a progress bar counts on before the data are read: the price series of the scope's tariffs
 *  (whatever their days: at least as many as the page draws) and the meters with readings in the
 *  cost window (those prepareCostScope finds). */
async function plannedSteps(warehouse: Warehouse, params: Record<string, DuckDBValue>): Promise<{ series: number; meters: number }> {
  const row = await warehouse.one(`
    SELECT (SELECT count(*) FROM (SELECT DISTINCT tariff_code, payment_method, rate_type FROM unit_rates
                                  WHERE ${inTariffs('tariff_code')})) AS series,
           (SELECT count(DISTINCT meter_point) FROM consumption
            WHERE ${inCostWindow('interval_start')}) AS meters`, params);
  return { series: Number(row!.series), meters: Number(row!.meters) };
}

/** The TIMESTAMPTZ columns of `table` (the reports' `_utc` instants), in column order. */
async function instantColumns(warehouse: Warehouse, table: string): Promise<string[]> {
  const columns = await warehouse.all(`DESCRIBE ${table}`);
  return columns.filter((c) => c.column_type === 'TIMESTAMP WITH TIME ZONE').map((c) => c.column_name as string);
}

/**
 * The rows of `table` as `format` gets them. Parquet keeps instants as timestamps adjusted to UTC;
 * CSV spells them ISO 8601 in UTC (`2024-10-27T00:30:00Z`), the same whatever the session's TimeZone
 * (DuckDB's own CSV text would follow it and read `2024-10-27 00:30:00+00`).
 */
function selectRows(table: string, format: TableFormat, instants: readonly string[]): string {
  if (format !== 'csv' || instants.length === 0) return `SELECT * FROM ${table}`;
  const utcText = instants.map((c) => `strftime(timezone('UTC', "${c}"), '%Y-%m-%dT%H:%M:%SZ') AS "${c}"`);
  return `SELECT * REPLACE (${utcText.join(', ')}) FROM ${table}`;
}

function checkFormats(formats: readonly string[]): ExportFormat[] {
  if (formats.length === 0) throw new UsageError(`--format: give at least one of ${EXPORT_FORMATS.join(', ')}`);
  for (const f of formats) {
    if (!(EXPORT_FORMATS as readonly string[]).includes(f)) {
      throw new UsageError(`--format: '${f}' is not one of ${EXPORT_FORMATS.join(', ')}`);
    }
  }
  return EXPORT_FORMATS.filter((f) => formats.includes(f));
}

/** Creates the directory and proves a file can be made in it, before any query runs. */
function prepareDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    const probe = temporaryPathFor(join(dir, 'write-check'));
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EACCES' || code === 'EPERM' ? 'permission denied'
      : code === 'ENOTDIR' || code === 'EEXIST' ? 'a path component is not a directory'
        : code === 'EROFS' ? 'read-only file system'
          : (error as Error).message;
    throw new ExportDirectoryError(dir, reason, { cause: error });
  }
}
