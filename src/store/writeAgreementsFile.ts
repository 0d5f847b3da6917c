// The writes of `tariffs agreements import`: the file's rows staged in a temp table, then in one
// transaction the meter points it names that the store did not know, and the agreements of each
// meter whose stored agreements differ from the file's, replaced by the file's.
import type { Warehouse } from './Warehouse.js';

const STAGE = 'stage_agreements_file';
const FILE_AGREEMENTS = `(SELECT meter_point, tariff_code, valid_from, valid_to FROM temp.${STAGE})`;
const STORED_AGREEMENTS = `(SELECT meter_point, tariff_code, valid_from, valid_to FROM agreements
                            WHERE meter_point IN (SELECT meter_point FROM temp.${STAGE}))`;

/** The SQL (over `relation`, the file read by DuckDB) of each staged column, and `problem`: the
 *  first failing check of the row, NULL for a good one. */
export interface AgreementsFileColumns {
  relation: string;
  mp: string;
  code: string;
  fromRaw: string;
  from: string;
  toRaw: string;
  to: string;
  /** Over the names mp, code, from_raw, vf, to_raw, vt. */
  problem: string;
}

export const AGREEMENTS_STAGE = STAGE;

/** Reads the file into the staging table, in file order (rowid is the row's place in the file). */
export async function stageAgreementsFile(warehouse: Warehouse, c: AgreementsFileColumns): Promise<void> {
  await warehouse.run('SET preserve_insertion_order = true'); // rowid is the row's place in the file
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE} AS
      SELECT mp AS meter_point, code AS tariff_code, vf AS valid_from, vt AS valid_to, ${c.problem} AS problem
      FROM (SELECT ${c.mp} AS mp, ${c.code} AS code, ${c.fromRaw} AS from_raw, ${c.from} AS vf,
                   ${c.toRaw} AS to_raw, ${c.to} AS vt
            FROM ${c.relation})`);
}

/** Two staged agreements of a meter in force at once (the same valid_from included): the later
 *  row and the other, by rowid. */
export async function firstOverlappingAgreement(warehouse: Warehouse): Promise<{ row: number; other: number } | undefined> {
  const overlap = await warehouse.one(`
    SELECT greatest(r, prev) AS r, least(r, prev) AS other
    FROM (SELECT rowid AS r, valid_from,
                 lag(rowid) OVER w AS prev, lag(valid_to) OVER w AS prev_to, lag(rowid) OVER w IS NOT NULL AS has_prev
          FROM temp.${STAGE} WHERE problem IS NULL
          WINDOW w AS (PARTITION BY meter_point ORDER BY valid_from, rowid))
    WHERE has_prev AND (prev_to IS NULL OR prev_to > valid_from)
    ORDER BY greatest(r, prev) LIMIT 1`);
  return overlap ? { row: Number(overlap.r), other: Number(overlap.other) } : undefined;
}

export interface AgreementsReplaced {
  rows: number;
  meters: number;
  /** Meters whose stored agreements differed from the file's. */
  replaced: number;
  /** Meter points the store did not know. */
  added: number;
}

/** Stores the staged agreements; call inside a transaction. A staged row whose tariff is of another
 *  fuel or direction than its meter's is refused: `refuse(rowid, why)` makes the error thrown. */
export async function replaceStagedAgreements(
  warehouse: Warehouse, now: string, refuse: (row: number, why: string) => Promise<Error>,
): Promise<AgreementsReplaced> {
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
  if (mismatch) throw await refuse(Number(mismatch.r), String(mismatch.why));
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
  return { rows: Number(totals.rows), meters: Number(totals.meters), replaced: Number(totals.replaced), added: Number(added?.n ?? 0) };
}

/** Drops the staging tables (errors ignored: this runs on the way out of a failure too). */
export async function dropAgreementsStage(warehouse: Warehouse): Promise<void> {
  await warehouse.run(`DROP TABLE IF EXISTS temp.${STAGE}`).catch(() => undefined);
  await warehouse.run(`DROP TABLE IF EXISTS temp.${STAGE}_changed`).catch(() => undefined);
}
