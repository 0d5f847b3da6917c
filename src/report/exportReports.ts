// exportReports: the reports of README.md (section Exports) written to a directory as CSV, Parquet
// and/or one self-contained HTML page, one step after another; the same data give the same bytes.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ERROR_CODES, TariffsError, UsageError } from '../errors.js';
import { silentLogger } from '../log/createLogger.js';
import { exportRowsSql } from '../analytics/exportRows.js';
import type { PaymentMethod } from '../tariffTerms.js';
import { Warehouse } from '../store/Warehouse.js';
import { writableDirectoryProblem } from '../store/writableDirectory.js';
import { copyToFile, type TableFormat } from './copyToFile.js';
import { resolveScope, scopeParams } from './exportScope.js';
import type { DuckDBValue } from '@duckdb/node-api';
import { assemblePage, pageSections, readHtmlData, type DrawnSection } from './html/buildHtmlReport.js';
import { COST_REPORTS, costReportParams, prepareCostScope } from './costReports.js';
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
  paymentMethod?: PaymentMethod;
  /** Told each report and each section of the HTML page as it is written (a progress bar). */
  progress?: ExportProgress;
  /** The file already open (the demo's, shared with its summary): read, not closed, here. */
  warehouse?: Warehouse;
}

/** How an export tells its progress: a step per opening statement (opening the file, the scope,
 *  the costs, each of the page's queries), then per report written (in every format) and per
 *  section of the HTML page drawn. */
export interface ExportProgress {
  /** More steps to come (every step is counted before the first is done). */
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
    super(ERROR_CODES.EXPORT_DIR, `cannot write reports to ${dir}: ${reason}`, options);
    this.dir = dir;
  }
}

/** The page's queries before its per-meter ones (readHtmlData): each a step. */
const PAGE_READS = 5;

/** One piece of the export's work, told to the progress bar by name. */
interface Step {
  name: string;
  run(): Promise<void>;
}

/** Opens the warehouse read-only (unless given one) and closes it; every file is written atomically. */
export async function exportReports(options: ExportReportsOptions): Promise<{ files: ExportedFile[] }> {
  const logger = options.logger ?? silentLogger();
  const formats = checkFormats(options.formats);
  prepareDirectory(options.outDir);
  const started = performance.now();
  const { progress } = options;
  const html = formats.includes('html');
  // The opening statements are steps too (opening, scope, costs, the page's queries), counted
  // before the first is done; those done before the rest are counted (the page's series are known
  // once its daily statistics are read) are told when they are, so the bar only moves forward.
  progress?.expect(3 + (html ? PAGE_READS : 0));
  let pending = 0;
  let counted = false;
  const finished = () => {
    if (counted) progress?.done();
    else pending++;
  };
  const countRest = (steps: number) => {
    progress?.expect(steps);
    counted = true;
    if (pending > 0) progress?.done(pending);
    pending = 0;
  };
  progress?.working(`opening ${options.db}`);
  const warehouse = options.warehouse ?? await Warehouse.open(options.db, {
    readOnly: true, logger, busyTimeoutMs: options.busyTimeoutMs ?? 30_000,
  });
  finished();
  try {
    progress?.working('choosing the tariffs and the window');
    const scope = await resolveScope(warehouse, options);
    logger.info({ tariffs: scope.tariffs.length, formats, dir: options.outDir }, 'export: starting');
    const params = {
      ...scopeParams(scope), payment: options.paymentMethod ?? 'DIRECT_DEBIT',
      cost_from: options.from?.toISOString() ?? null, cost_to: options.to?.toISOString() ?? null,
    };
    const tableFormats = formats.filter((f): f is TableFormat => f !== 'html');
    finished();
    const meters = await prepareCostScope(warehouse, params, {
      comparison: tableFormats.length > 0, working: (what) => progress?.working(`working out the costs: ${what}`),
    });
    const reports = tableFormats.length === 0 ? [] : [...REPORTS, ...(meters > 0 ? COST_REPORTS : [])];
    const reportParams = meters > 0 ? { ...params, ...await costReportParams(warehouse) } : params;
    finished();
    let page;
    let sections = 0;
    if (html) {
      progress?.expect(meters); // a query of the page's per meter, then a section
      let reading = false;
      const read = (what: string) => {
        if (reading) finished();
        reading = true;
        progress?.working(`${HTML_FILE}: ${what}`);
      };
      page = await readHtmlData(warehouse, scope, params, read, (series) => {
        sections = meters + series;
        countRest(reports.length + sections);
      });
      finished();
    } else {
      countRest(reports.length);
    }

    const files: ExportedFile[] = [];
    const steps: Step[] = reports.map((report) => ({
      name: report.name,
      run: async () => void files.push(...await writeReport(warehouse, report, reportParams, options.outDir, tableFormats, logger)),
    }));
    const drawn: DrawnSection[] = [];
    for (const section of page ? pageSections(page, logger) : []) {
      steps.push({ name: `${HTML_FILE}: ${section.name}`, run: async () => void drawn.push(await section.draw()) });
    }
    const uncounted = steps.length - reports.length - sections;
    if (uncounted > 0) progress?.expect(uncounted);
    for (const step of steps) {
      progress?.working(step.name);
      await step.run();
      progress?.done();
      // a turn of the event loop between steps, so the bar redraws: a chart's drawing resolves
      // without one, and the steps would otherwise all show at once at the end
      if (progress) await new Promise((resolve) => setImmediate(resolve));
    }
    if (page) {
      progress?.working(`writing ${HTML_FILE}`);
      const path = join(options.outDir, HTML_FILE);
      const report = assemblePage(page, drawn);
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

/** A report's rows computed once into a temp table, then copied to each format. */
async function writeReport(
  warehouse: Warehouse, report: ReportDefinition, params: Record<string, DuckDBValue>, outDir: string, formats: TableFormat[], logger: Logger,
): Promise<ExportedFile[]> {
  const started = performance.now();
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_rows AS ${report.query}`, params).catch((error: unknown) => {
    throw new TariffsError(ERROR_CODES.EXPORT_QUERY, `report ${report.name}: ${(error as Error).message}`, { cause: error });
  });
  const columns = (await warehouse.all('DESCRIBE export_rows'))
    .map((c) => ({ name: c.column_name as string, type: c.column_type as string }));
  const written: ExportedFile[] = [];
  for (const format of formats) {
    const path = join(outDir, `${report.name}.${format}`);
    const rows = await copyToFile(warehouse, exportRowsSql('export_rows', format, columns), {}, path, format);
    written.push({ path, rows, format });
  }
  await warehouse.run('DROP TABLE export_rows');
  logger.info({ report: report.name, formats, rows: written.at(-1)!.rows, ms: Math.round(performance.now() - started) }, 'export: report written');
  return written;
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

/** Creates the directory (level by level: writableDirectory.ts) and proves a file can be made in
 *  it, before any query runs. */
function prepareDirectory(dir: string): void {
  const problem = writableDirectoryProblem(dir);
  if (problem) throw new ExportDirectoryError(dir, problem.reason, { cause: problem.cause });
  const probe = temporaryPathFor(join(dir, 'write-check'));
  try {
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EACCES' || code === 'EPERM' ? `the directory ${dir} is not writable (permission denied)`
      : code === 'EROFS' ? `the directory ${dir} is on a read-only file system`
        : `no file can be made in ${dir} (${(error as Error).message})`;
    throw new ExportDirectoryError(dir, reason, { cause: error });
  }
}
