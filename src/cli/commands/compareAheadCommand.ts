// `tariffs compare --ahead`: what a meter is expected to pay from here on each tariff it could be on
// (compare_ahead of sql/public), kept apart from compare's backward-looking action.
import type { Command } from 'commander';
import { backtestAhead, compareAhead, compareAheadStatement, metersReadBy, type AheadRequest, type Horizon, type PaymentMethod } from '../../analytics/index.js';
import { NoDataError } from '../../errors.js';
import type { JsRow } from '../../store/rowsToJs.js';
import { parseUserDateTime } from '../../time/index.js';
import { parsed, rule } from '../flagRules.js';
import { parseHorizon } from '../parseHorizon.js';
import { cliMessage } from '../requestWords.js';
import { output, rangeOf, withWarehouse, type RangeFlags } from '../questions.js';
import type { CommonFlags } from '../common.js';
import type { TableLayout } from '../table.js';
import { printSql, type PrintSqlFlags } from '../printSql.js';

export interface AheadFlags extends CommonFlags, RangeFlags, PrintSqlFlags {
  meter?: string;
  allMeters?: boolean;
  tariff?: string[];
  from?: string;
  to?: string;
  ahead?: Horizon;
  asOf?: Date;
  region?: string;
  backtest?: boolean;
}

export const AHEAD_LAYOUT: TableLayout = {
  answer: ['tariff_code', 'total_inc_vat', 'rank', 'published_share'],
  key: ['is_current', 'expected_kwh', 'energy_inc_vat', 'standing_charge_inc_vat', 'missing_half_hours'],
};

export function configureAhead(command: Command): void {
  command
    .option('--ahead <horizon>', 'from here instead: the expected cost over tomorrow, 7d, 30d or 12m on each tariff on sale (or each --tariff)', parsed('--ahead', parseHorizon))
    .option('--as-of <when>', 'with --ahead: answer as of this instant (readings ending by it, prices published by it; default now)', parsed('--as-of', parseUserDateTime))
    .option('--backtest', 'with --ahead: replay the rule over the meter\'s history (each past day, or each month for 30d and 12m; --from/--to narrow it): per tariff the MAPE of the total and how often the predicted cheapest was the cheapest')
    .option('--region <letter>', 'with --ahead: the region of the tariffs on sale (default: the region of the meter\'s agreements)', (text: string) => text.toUpperCase());
  rule<AheadFlags>(command, (f) => f.ahead === undefined && (f.asOf !== undefined || f.region !== undefined),
    '--as-of and --region go with --ahead');
  rule<AheadFlags>(command, (f) => f.ahead !== undefined && f.backtest !== true && (f.from !== undefined || f.to !== undefined),
    '--ahead looks forward from --as-of: no --from or --to (they narrow a --backtest)');
  rule<AheadFlags>(command, (f) => f.backtest === true && (f.ahead === undefined || f.asOf !== undefined || f.meter === undefined),
    '--backtest replays --ahead for one --meter, each period as of its eve: no --as-of');
  rule<AheadFlags>(command, (f) => f.region !== undefined && !/^[A-P]$/.test(f.region), '--region: a region letter A-P');
  rule<AheadFlags>(command, (f) => f.ahead !== undefined && f.printSql === true && (f.meter === undefined || f.backtest === true),
    '--print-sql with --ahead prints the statement of one --meter (--all-meters and --backtest run one a meter or period)');
  command.addHelpText('after', `
--ahead tomorrow|7d|30d|12m [--as-of INSTANT]: one row per tariff on sale to the meter at --as-of
(its fuel and direction, its region or --region, its product available then and not for business;
tariffs_on_sale(meter, as_of, region := …)), or per --tariff, and the agreement in force
(is_current): tariff_code, expected_kwh, energy_inc_vat, standing_charge_inc_vat, total_inc_vat
(pence), published_share (0-1: the share of the cost from published prices) and rank (1 = cheapest;
an export meter: 1 = pays most). The horizon is local days from the first starting at or after
--as-of (tomorrow: that day; 12m: twelve calendar months).
Expected use, the one rule (SQL: expected_use(meter, as_of); docs/decisions/expected-use.md): per
Europe/London wall-clock half-hour and day type (weekday, or Saturday/Sunday), the mean kWh of the
readings starting then over the complete local days (all 46/48/50 half-hours read) among the 28
before the first day ahead, of that day type; a spring-forward day has no 01:00 and 01:30, a
fall-back day's repeated half-hours each take the profile's value. Fewer than 28 days: the days
there are (weekdays, weekend_days); none of a day type the horizon holds: refused, naming why.
Prices as of --as-of: a day's half-hourly prices from 16:00 London the day before, other rates once
stored; beyond them an estimate (half-hourly and banded tariffs: the mean at that wall-clock time
over the tariff's last 28 days of prices; an open-ended rate: itself, an estimate for a variable
product). SQL: compare_ahead(meter, as_of, horizon, tariffs := …, region := …, payment := …).
--backtest: each past local day (tomorrow, 7d: each week) or month (30d: the 30 days from its 1st;
12m: twelve months from it) with 28 days of history before it is predicted as of 17:00 London on
its eve, then priced as it came (daily_costs: the readings at the prices stored); one row per
tariff: periods, mape_total (mean absolute percentage error of the total, 0.05 = 5%),
predicted_first and actual_first (times predicted cheapest, times cheapest; export: paying most),
and first_hit_rate over the ranked_periods every tariff had both totals.`);
}

export async function runAhead(flags: AheadFlags, payment: PaymentMethod): Promise<void> {
  if (flags.backtest === true) {
    await runBacktest(flags, payment);
    return;
  }
  const asOf = flags.asOf ?? new Date();
  await withWarehouse(flags, async (warehouse, format) => {
    const meters = flags.meter !== undefined ? [flags.meter] : await metersReadBy(warehouse, asOf);
    const request = (meter: string): AheadRequest => ({
      meter, asOf, horizon: flags.ahead!, payment, rounded: true,
      ...(flags.tariff && flags.tariff.length > 0 ? { tariffs: flags.tariff } : {}),
      ...(flags.region !== undefined ? { region: flags.region } : {}),
    });
    if (flags.printSql === true) {
      printSql(await compareAheadStatement(warehouse, request(meters[0]!)));
      return;
    }
    const rows: JsRow[] = [];
    for (const meter of meters) {
      const ask = () => compareAhead(warehouse, request(meter));
      if (meters.length === 1) {
        rows.push(...await ask());
        continue;
      }
      // every meter: one without the history to answer is left out, said on stderr
      try {
        rows.push(...await ask());
      } catch (error) {
        if (!(error instanceof NoDataError)) throw error;
        process.stderr.write(`tariffs: left out: ${cliMessage(error)}\n`);
      }
    }
    warnUnpriced(rows);
    output(rows, format, AHEAD_LAYOUT);
  });
}

/** A tariff without prices stored has no total: said on stderr with the command that stores them. */
function warnUnpriced(rows: JsRow[]): void {
  const unpriced = rows.filter((r) => r.total_inc_vat === null).map((r) => String(r.tariff_code));
  if (unpriced.length === 0) return;
  process.stderr.write(`tariffs: no total for ${[...new Set(unpriced)].join(', ')}: a half-hour without a price or an expected kWh ` +
    `(missing_half_hours); \`tariffs ingest ${[...new Set(unpriced)].map((c) => `--tariff ${c}`).join(' ')}\` stores their rates\n`);
}

async function runBacktest(flags: AheadFlags, payment: PaymentMethod): Promise<void> {
  const range = flags.from === undefined && flags.to === undefined ? {} : rangeOf(flags);
  await withWarehouse(flags, async (warehouse, format) => {
    const rows = await backtestAhead(warehouse, {
      meter: flags.meter!, horizon: flags.ahead!, payment, ...range,
      ...(flags.tariff && flags.tariff.length > 0 ? { tariffs: flags.tariff } : {}),
      ...(flags.region !== undefined ? { region: flags.region } : {}),
    });
    if (rows.length === 0) process.stderr.write(`tariffs: no period of meter ${flags.meter!} has the history to replay --ahead ${flags.ahead!}\n`);
    output(rows, format, BACKTEST_LAYOUT);
  });
}

const BACKTEST_LAYOUT: TableLayout = {
  answer: ['tariff_code', 'mape_total', 'first_hit_rate'],
  key: ['periods', 'predicted_first', 'actual_first', 'ranked_periods'],
};
