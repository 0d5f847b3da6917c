// `tariffs agreements import`: a file of meter_point, tariff_code, valid_from, valid_to (CSV or
// Parquet) replaces the agreements of the meters it names, checked whole, in one transaction.
import type { Logger } from 'pino';
import { silentLogger } from '../log/createLogger.js';
import type { Warehouse } from '../store/Warehouse.js';
import {
  AGREEMENTS_STAGE, dropAgreementsStage, firstOverlappingAgreement, replaceStagedAgreements, stageAgreementsFile,
} from '../store/writeAgreementsFile.js';
import {
  column, FileRowError, firstBadRow, instantOf, locate, openTableFile, problemSql, quoted, readError, textOf, type Check, type TableFile,
} from './tableFile.js';

export interface ImportAgreementsRequest {
  path: string;
  /** The path, for messages. */
  source: string;
  now?: () => Date;
  logger?: Logger;
}

export interface ImportAgreementsSummary {
  layout: 'csv' | 'parquet';
  rows: number;
  meters: number;
  /** Meters whose stored agreements differed from the file's, now replaced by them. */
  meters_replaced: number;
  meters_unchanged: number;
  /** Meter points the store did not know (fuel and direction from their latest tariff). */
  meter_points_added: number;
}

const EXPECTED = 'meter_point, tariff_code, valid_from, valid_to';

export async function importAgreementsFile(warehouse: Warehouse, request: ImportAgreementsRequest): Promise<ImportAgreementsSummary> {
  const now = (request.now ?? (() => new Date()))().toISOString();
  const logger = request.logger ?? silentLogger();
  try {
    const file = await openTableFile(warehouse, request.path, request.source);
    const tariff = column(file, 'tariff_code', true, EXPECTED);
    await stage(warehouse, request, file);
    const summary = await warehouse.transaction(async () => {
      const totals = await replaceStagedAgreements(warehouse, now,
        async (row, why) => new FileRowError(request.source, await locate(file, row), tariff.name, why));
      return {
        layout: file.format, rows: totals.rows, meters: totals.meters, meters_replaced: totals.replaced,
        meters_unchanged: totals.meters - totals.replaced, meter_points_added: totals.added,
      };
    });
    logger.info(summary, 'agreements imported');
    return summary;
  } finally {
    await dropAgreementsStage(warehouse);
  }
}

/** Reads the file into the staging table; throws the first bad row's error (a bad cell, or an
 *  agreement overlapping another of its meter). */
async function stage(warehouse: Warehouse, request: ImportAgreementsRequest, file: TableFile): Promise<void> {
  const mp = column(file, 'meter_point', true, EXPECTED);
  const tariff = column(file, 'tariff_code', true, EXPECTED);
  const from = column(file, 'valid_from', true, EXPECTED);
  const to = column(file, 'valid_to', true, EXPECTED);
  const fromInstant = instantOf(file, from);
  const toInstant = instantOf(file, to);
  const checks: Check[] = [
    { column: mp.name, when: 'mp IS NULL', detail: "'is empty'" },
    { column: mp.name, when: `NOT regexp_full_match(mp, '[0-9A-Za-z_-]{4,20}')`, detail: `${quoted('mp')} || ' is not an MPAN or MPRN'` },
    { column: tariff.name, when: 'code IS NULL', detail: "'is empty'" },
    { column: tariff.name, when: "NOT regexp_full_match(code, '[EG]-[0-9A-Z]+(-[0-9A-Z]+)+')",
      detail: `${quoted('code')} || ' is not a tariff code (E-1R-…, E-2R-…, G-1R-…)'` },
    { column: from.name, when: 'from_raw IS NULL', detail: "'is empty'" },
    ...fromInstant.checks('vf', 'from_raw'),
    ...toInstant.checks('vt', 'to_raw'),
    { column: to.name, when: 'vt <= vf', detail: `${quoted('to_raw')} || ' is not after valid_from'` },
  ];
  try {
    await stageAgreementsFile(warehouse, {
      relation: file.relation, mp: textOf(mp), code: textOf(tariff), fromRaw: textOf(from), from: fromInstant.value,
      toRaw: textOf(to), to: toInstant.value, problem: problemSql(checks),
    });
  } catch (error) {
    throw readError(request.source, error);
  }
  const bad = await firstBadRow(warehouse, file, AGREEMENTS_STAGE);
  // Two agreements of a meter in force at once (the same valid_from included): the later row is named.
  const overlap = await firstOverlappingAgreement(warehouse);
  if (overlap && (!bad || overlap.row < bad.index)) {
    throw new FileRowError(request.source, await locate(file, overlap.row), from.name,
      `this agreement and the one on ${await locate(file, overlap.other)} are in force at once (valid_from, valid_to overlap)`);
  }
  if (bad) throw await bad.error();
}
