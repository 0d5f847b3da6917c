// The prices `cheapest` and `slots` rank when an Intelligent Octopus Go tariff's dispatches count
// (`--dispatches`, issue 28): effective_rates_with for the one account on the tariff with
// dispatches stored, passed to price_windows / cheapest_slots as their slot_prices list. Decided
// here, so that the plain question (a non-IOG tariff, or --dispatches none) passes no slot_prices
// and pays nothing for it.
import { InvalidRequest, type Wording } from './requestErrors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { describeDispatchMode, type DispatchMode } from './dispatchMode.js';

/** The slot_prices argument: SQL over bound parameters ($tariff, $from, $to and its own). */
export interface DispatchPrices {
  sql: string;
  params: { dispatch_mode: DispatchMode; dispatch_account: string };
  account: string;
  mode: DispatchMode;
}

/** Said on stderr: which dispatches were counted, or why the flag changes nothing. */
export interface DispatchPricesChoice {
  prices?: DispatchPrices;
  /** In the asker's words (the field that asks for dispatches named as they name it). */
  note: Wording;
  /** Whether the tariff is an Intelligent Octopus Go one of an account with dispatches (then the
   *  note is always said; otherwise only when --dispatches was given). */
  iog: boolean;
}

/** The SQL an analyst types for the same question (the CLI binds the same values). */
export const SLOT_PRICES_SQL = `(SELECT list({payment_method: payment_method, slot_start: slot_start,
        value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat})
      FROM (SELECT DISTINCT ON (payment_method, slot_start) payment_method, slot_start, value_inc_vat, value_exc_vat
            FROM effective_rates_with($dispatch_mode)
            WHERE tariff_code = $tariff AND account_number = $dispatch_account
              AND slot_start >= coalesce(CAST($from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
              AND slot_start < coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')
            ORDER BY payment_method, slot_start, meter_point))`;

/**
 * The accounts with an Intelligent Octopus Go agreement on `tariff` (a night band or an INTELLI
 * code, as effective_rates_with has it) and dispatches stored. One: its effective prices (unless
 * mode 'none'). None: nothing changes. Several: an explicit --dispatches is refused (which
 * account's dispatches is not said); the default leaves the prices as they are, and says so.
 */
export async function dispatchPrices(warehouse: Warehouse, tariff: string, mode: DispatchMode, explicit: boolean): Promise<DispatchPricesChoice> {
  const rows = await warehouse.all<{ account_number: string }>(`
    SELECT DISTINCT coalesce(a.account_number, m.account_number) AS account_number
    FROM agreements AS a
    JOIN meter_points AS m ON m.meter_point = a.meter_point AND m.fuel = 'electricity' AND NOT m.is_export
    JOIN tariffs AS t ON t.tariff_code = a.tariff_code
    WHERE a.tariff_code = $tariff
      AND (t.night_start_minutes IS NOT NULL OR a.tariff_code ILIKE '%-INTELLI-%')
      AND EXISTS (SELECT 1 FROM dispatches AS d WHERE d.account_number = coalesce(a.account_number, m.account_number))
    ORDER BY 1`, { tariff });
  const accounts = rows.map((r) => r.account_number).filter((a) => a !== null);
  if (accounts.length === 0) {
    return { iog: false, note: (w) => `${tariff} is not an Intelligent Octopus Go tariff of an account with dispatches stored: ${w.field('dispatches')} changes nothing` };
  }
  if (accounts.length > 1) {
    const which = `${accounts.length} accounts on ${tariff} have dispatches (${accounts.join(', ')})`;
    if (explicit && mode !== 'none') {
      throw new InvalidRequest('dispatches', (w) => `${w.field('dispatches')}: ${which}; ask in SQL with slot_prices for one account${w.advice('seeHelp')}`);
    }
    return { iog: true, note: () => `${which}: prices without dispatches (the tariff's own)` };
  }
  const account = accounts[0]!;
  const said = `Intelligent Octopus Go dispatches of account ${account} counted: `;
  if (mode === 'none') return { iog: true, note: () => `${said}${describeDispatchMode(mode)} (SQL: no slot_prices)` };
  return {
    iog: true,
    prices: { sql: SLOT_PRICES_SQL, params: { dispatch_mode: mode, dispatch_account: account }, account, mode },
    note: () => `${said}${describeDispatchMode(mode)}` +
      ` (SQL: slot_prices := list of effective_rates_with('${mode}') for the account)`,
  };
}
