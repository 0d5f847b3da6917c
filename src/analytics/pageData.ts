// The reads of the HTML page (src/report/html/buildHtmlReport.ts and costCharts.ts), each one
// relation of sql/public with the export's values bound: price_series, best_window_per_day,
// recent_day_prices; for the household's costs, the cost scope's temp table export_cost_meters
// (reportQueries.ts' prepareCostScope), household_costs and daily_use.
import { listValue, type DuckDBValue } from '@duckdb/node-api';
import type { JsRow } from '../store/rowsToJs.js';
import type { Warehouse } from '../store/Warehouse.js';

/** A half-hour of a day drawn (recent_day_prices). */
export interface PointRow {
  key: string;
  local_date: string;
  period: number;
  price: number;
  negative: boolean;
}

/** The best window of a local day (best_window_per_day: an import tariff's cheapest, an export
 *  tariff's dearest), with the settlement period it starts in. */
export interface WindowRow {
  key: string;
  local_date: string;
  period: number;
  local_start: string;
  local_end: string;
  mean_inc_vat: number;
}

/** A day of a meter's use and the mean price it paid (daily_use). */
export interface DailyUseRow {
  local_date: string;
  kwh: number;
  price: number | null;
}

/** Every price series (tariff × payment method × rate type) with its label and names: the view price_series. */
export async function priceSeries(warehouse: Warehouse): Promise<JsRow[]> {
  return warehouse.all('SELECT * FROM price_series');
}

/** The best window of `nSlots` half-hours per local day of the scope ($tariffs, $range_from,
 *  $range_to of `params`): the macro best_window_per_day. */
export async function bestWindowPerDay(warehouse: Warehouse, params: Record<string, DuckDBValue>, nSlots: number): Promise<WindowRow[]> {
  return (await warehouse.all('SELECT * FROM best_window_per_day($tariffs, $n_slots, $range_from, $range_to)',
    { ...params, n_slots: nSlots })).map((w): WindowRow => ({
    key: String(w.series_label), local_date: String(w.local_date), period: Number(w.settlement_period),
    local_start: String(w.local_start), local_end: String(w.local_end), mean_inc_vat: Number(w.mean_inc_vat),
  }));
}

/** The half-hours of the last `nDays` local days of each series of the scope: the macro recent_day_prices. */
export async function recentDayPrices(warehouse: Warehouse, params: Record<string, DuckDBValue>, nDays: number): Promise<PointRow[]> {
  return (await warehouse.all('SELECT * FROM recent_day_prices($tariffs, $n_days, $range_from, $range_to)',
    { ...params, n_days: nDays })).map((p): PointRow => ({
    key: String(p.series_label), local_date: String(p.local_date), period: Number(p.settlement_period),
    price: Number(p.value_inc_vat), negative: p.negative === true,
  }));
}

/** The meters of the export's cost scope and their compared tariffs (the temp table export_cost_meters). */
export async function exportCostMeters(warehouse: Warehouse): Promise<JsRow[]> {
  return warehouse.all('SELECT meter_point, is_export, tariffs FROM export_cost_meters ORDER BY meter_point');
}

/** The cost window and payment method of a meter's figures. */
export interface CostRange {
  cost_from: DuckDBValue;
  cost_to: DuckDBValue;
  payment: DuckDBValue;
}

/** A meter's costs at its agreements and at each of `tariffs`: the macro household_costs. */
export async function householdCosts(warehouse: Warehouse, mp: string, tariffs: string[], range: CostRange): Promise<JsRow[]> {
  return warehouse.all(`SELECT * FROM household_costs($mp, CAST($tariffs AS VARCHAR[]), CAST($cost_from AS TIMESTAMPTZ),
      CAST($cost_to AS TIMESTAMPTZ), payment := $payment)`, { ...range, mp, tariffs: listValue(tariffs) });
}

/** A meter's days of use and the mean price paid: the macro daily_use. */
export async function dailyUse(warehouse: Warehouse, mp: string, range: CostRange): Promise<DailyUseRow[]> {
  return (await warehouse.all(`SELECT * FROM daily_use($mp, CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ),
      payment := $payment)`, { ...range, mp })).map((d) => ({
    local_date: String(d.local_date), kwh: Number(d.kwh), price: d.mean_price_inc_vat === null ? null : Number(d.mean_price_inc_vat),
  }));
}
