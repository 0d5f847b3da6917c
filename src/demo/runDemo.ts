// `tariffs demo` end to end, offline: the built-in sandbox → a fresh warehouse (every sandbox
// tariff from 2017-01-01) → the reports as CSV, Parquet and HTML → a summary.
import type { Logger } from 'pino';
import { exportReports, HTML_FILE, type ExportedFile, type ExportFormat, type ExportProgress } from '../report/exportReports.js';
import { halfHourlyTariffs } from '../report/exportScope.js';
import { Warehouse } from '../store/Warehouse.js';
import { buildDemoWarehouse, type DemoBuildProgress } from './buildDemoWarehouse.js';
import { demoSummary, householdSummary, type DemoSummary } from './demoSummary.js';

export const DEMO_DB = 'data/demo.duckdb';
export const DEMO_OUT = 'data/reports';

export interface DemoOptions {
  db?: string;
  outDir?: string;
  logger: Logger;
  /** Stages, the ingest's records and the export's steps as they happen (a terminal's bars). */
  progress?: DemoProgress;
}

export interface DemoProgress extends DemoBuildProgress {
  /** A stage ended: its bar (if any) goes, a line saying what it did stays. */
  stageDone?(text: string): void;
  export?: ExportProgress;
  /** The summary's queries (prices, then the household). */
  summary?: ExportProgress;
}

export interface DemoResult {
  db: string;
  outDir: string;
  tariffs: string[];
  rows: number;
  summary: DemoSummary;
  files: ExportedFile[];
  seconds: { ingest: number; export: number; total: number };
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const db = options.db ?? DEMO_DB;
  const outDir = options.outDir ?? DEMO_OUT;
  const { logger } = options;
  const started = performance.now();
  const progress = options.progress ?? {};
  const built = await buildDemoWarehouse(db, logger, progress);
  const ingested = performance.now();
  logger.info({ db, rows: built.ingest.inserted, seconds: seconds(ingested - started) }, 'demo: warehouse built; exporting');
  progress.stageDone?.(`ingested ${built.ingest.inserted} rates of ${built.tariffs.length} tariffs in ${seconds(ingested - started)} s`);
  progress.stage?.(`writing the reports to ${outDir}/ (csv, parquet, ${HTML_FILE})`);
  const formats: ExportFormat[] = ['csv', 'parquet', 'html'];
  const warehouse = await Warehouse.open(db, { readOnly: true, logger });
  try {
    const { files } = await exportReports({ db, outDir, formats, logger, warehouse, ...(progress.export ? { progress: progress.export } : {}) });
    const exported = performance.now();
    const reported = [...new Set(files.map((f) => f.path))].length;
    logger.info({ dir: outDir, files: reported, seconds: seconds(exported - ingested) }, 'demo: reports written');
    const charts = files.find((f) => f.format === 'html')?.rows ?? 0;
    progress.stageDone?.(`wrote ${files.length} files (${charts} charts) in ${seconds(exported - ingested)} s`);
    progress.stage?.('summarising');
    progress.summary?.expect(1);
    progress.summary?.working('cheapest windows, negative prices, clock changes, what the household paid');
    const summary = await demoSummary(warehouse, await halfHourlyTariffs(warehouse));
    summary.household = await householdSummary(warehouse);
    progress.summary?.done();
    return {
      db, outDir, tariffs: built.tariffs, rows: built.ingest.inserted, summary, files,
      seconds: { ingest: seconds(ingested - started), export: seconds(exported - ingested), total: seconds(performance.now() - started) },
    };
  } finally {
    warehouse.close();
  }
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
