// Reads of the stored meters and agreements the ingest makes to decide what to fetch: the accounts
// on Intelligent Octopus Go, an account's import meters and their regions.
import type { Warehouse } from './Warehouse.js';

/** The accounts among `accounts` with an agreement on an Intelligent Octopus Go tariff: one with
 *  a night band (four-rate EV, tariffs.night_start_minutes) or an INTELLI product code. */
export async function iogAccountsOf(warehouse: Warehouse, accounts: readonly string[]): Promise<string[]> {
  const rows = await warehouse.all<{ account_number: string }>(`
    SELECT DISTINCT coalesce(a.account_number, m.account_number) AS account_number
    FROM agreements AS a
    LEFT JOIN meter_points AS m ON m.meter_point = a.meter_point
    LEFT JOIN tariffs AS t ON t.tariff_code = a.tariff_code
    WHERE list_contains(CAST($accounts AS VARCHAR[]), coalesce(a.account_number, m.account_number))
      AND (t.night_start_minutes IS NOT NULL OR a.tariff_code ILIKE '%-INTELLI-%')
    ORDER BY 1`, { accounts: JSON.stringify(accounts) });
  return rows.map((r) => r.account_number);
}

/** The account's electricity import meter points and the GSP region letter of their latest agreement. */
export async function importMetersOf(warehouse: Warehouse, accountNumber: string): Promise<{ mpan: string; region: string | null }[]> {
  return warehouse.all<{ mpan: string; region: string | null }>(`
    SELECT m.meter_point AS mpan,
           nullif(regexp_extract(arg_max(a.tariff_code, a.valid_from), '-([A-P])$', 1), '') AS region
    FROM meter_points AS m
    LEFT JOIN agreements AS a ON a.meter_point = m.meter_point
    WHERE m.account_number = $account AND m.fuel = 'electricity' AND NOT m.is_export
    GROUP BY m.meter_point
    ORDER BY m.meter_point`, { account: accountNumber });
}
