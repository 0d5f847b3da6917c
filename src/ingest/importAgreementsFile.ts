// `tariffs agreements import`: a file of meter_point, tariff_code, valid_from, valid_to (CSV or
// Parquet) replaces the agreements of the meters it names, checked whole, in one transaction.
import type { Logger } from 'pino';
import { silentLogger } from '../log/createLogger.js';
import type { Warehouse } from '../store/Warehouse.js';
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

const STAGE = 'stage_agreements_file';
const EXPECTED = 'meter_point, tariff_code, valid_from, valid_to';
const FILE_AGREEMENTS = `(SELECT meter_point, tariff_code, valid_from, valid_to FROM temp.${STAGE})`;
const STORED_AGREEMENTS = `(SELECT meter_point, tariff_code, valid_from, valid_to FROM agreements
                            WHERE meter_point IN (SELECT meter_point FROM temp.${STAGE}))`;

export async function importAgreementsFile(warehouse: Warehouse, request: ImportAgreementsRequest): Promise<ImportAgreementsSummary> {
  const now = (request.now ?? (() => new Date()))().toISOString();
  const logger = request.logger ?? silentLogger();
  try {
    const file = await openTableFile(warehouse, request.path, request.source);
    const tariff = column(file, 'tariff_code', true, EXPECTED);
    await stage(warehouse, request, file);
    const summary = await warehouse.transaction(async () => {
      const unknown = `(SELECT meter_point, arg_max(tariff_code, valid_from) AS tariff_code FROM temp.${STAGE}
                        WHERE meter_point NOT IN (SELECT meter_point FROM meter_points) GROUP BY meter_point)`;
      const added = await warehouse.one(`SELECT count(*) AS n FROM ${unknown}`);
      await warehouse.run(`
        INSERT INTO meter_points
        SELECT u.meter_point, tariff_fuel(u.tariff_code), tariff_direction(u.tariff_code) = 'EXPORT', CAST([] AS VARCHAR[]),
               CAST(NULL AS VARCHAR), CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ)
        FROM ${unknown} AS u`, { now });
      // A tariff of another fuel or direction than its meter's is refused, as compare refuses it
      // (the macros' arguments are qualified: bare names would bind to the macros' own columns).
      const mismatch = await warehouse.one(`
        SELECT s.rowid AS r, tariff_mismatch(s.meter_point, s.tariff_code) AS why FROM temp.${STAGE} AS s
        WHERE tariff_mismatch(s.meter_point, s.tariff_code) IS NOT NULL ORDER BY s.rowid LIMIT 1`);
      if (mismatch) throw new FileRowError(request.source, await locate(file, Number(mismatch.r)), tariff.name, String(mismatch.why));
      await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE}_changed AS
        SELECT DISTINCT meter_point FROM ((${FILE_AGREEMENTS} EXCEPT ${STORED_AGREEMENTS}) UNION ALL (${STORED_AGREEMENTS} EXCEPT ${FILE_AGREEMENTS}))`);
      await warehouse.run(`DELETE FROM agreements WHERE meter_point IN (SELECT meter_point FROM temp.${STAGE}_changed)`);
      await warehouse.run(`
        INSERT INTO agreements
        SELECT meter_point, tariff_code, valid_from, valid_to, CAST(NULL AS VARCHAR), CAST($now AS TIMESTAMPTZ)
        FROM temp.${STAGE} WHERE meter_point IN (SELECT meter_point FROM temp.${STAGE}_changed)`, { now });
      const totals = (await warehouse.one(`
        SELECT count(*) AS rows, count(DISTINCT meter_point) AS meters, (SELECT count(*) FROM temp.${STAGE}_changed) AS replaced
        FROM temp.${STAGE}`))!;
      return {
        layout: file.format, rows: Number(totals.rows), meters: Number(totals.meters), meters_replaced: Number(totals.replaced),
        meters_unchanged: Number(totals.meters) - Number(totals.replaced), meter_points_added: Number(added?.n ?? 0),
      };
    });
    logger.info(summary, 'agreements imported');
    return summary;
  } finally {
    await warehouse.run(`DROP TABLE IF EXISTS temp.${STAGE}`).catch(() => undefined);
    await warehouse.run(`DROP TABLE IF EXISTS temp.${STAGE}_changed`).catch(() => undefined);
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
    await warehouse.run('SET preserve_insertion_order = true'); // rowid is the row's place in the file
    await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE} AS
      SELECT mp AS meter_point, code AS tariff_code, vf AS valid_from, vt AS valid_to, ${problemSql(checks)} AS problem
      FROM (SELECT ${textOf(mp)} AS mp, ${textOf(tariff)} AS code, ${textOf(from)} AS from_raw, ${fromInstant.value} AS vf,
                   ${textOf(to)} AS to_raw, ${toInstant.value} AS vt
            FROM ${file.relation})`);
  } catch (error) {
    throw readError(request.source, error);
  }
  const bad = await firstBadRow(warehouse, file, STAGE);
  // Two agreements of a meter in force at once (the same valid_from included): the later row is named.
  const overlap = await warehouse.one(`
    SELECT greatest(r, prev) AS r, least(r, prev) AS other
    FROM (SELECT rowid AS r, valid_from,
                 lag(rowid) OVER w AS prev, lag(valid_to) OVER w AS prev_to, lag(rowid) OVER w IS NOT NULL AS has_prev
          FROM temp.${STAGE} WHERE problem IS NULL
          WINDOW w AS (PARTITION BY meter_point ORDER BY valid_from, rowid))
    WHERE has_prev AND (prev_to IS NULL OR prev_to > valid_from)
    ORDER BY greatest(r, prev) LIMIT 1`);
  if (overlap && (!bad || Number(overlap.r) < bad.index)) {
    throw new FileRowError(request.source, await locate(file, Number(overlap.r)), from.name,
      `this agreement and the one on ${await locate(file, Number(overlap.other))} are in force at once (valid_from, valid_to overlap)`);
  }
  if (bad) throw await bad.error();
}
