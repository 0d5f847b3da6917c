// The household's part of the HTML page, first after its header: for each meter what it paid (an
// export meter: earned) last month and over the last year at its agreements, and what it would
// have paid at each compared tariff, as household_costs gives them; a figure priced at a carried
// rate or with half-hours missing is marked and never ranked. fromHere is the place for a table
// of forward costs per tariff ("from here"), drawn under each meter's own table.
import { agreedTariffs, meterRole, sameThroughout, type CostData, type CostFigure } from './costCharts.js';
import { COLORS } from './chartSpecs.js';
import type { HouseholdModel, PageCell, PageTable } from './reportPage.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The household section: a table per meter, in the order of the meters. */
export function householdOverview(meters: readonly CostData[], names: ReadonlyMap<string, string>, colours: ReadonlyMap<string, string>): HouseholdModel {
  const tables = meters.flatMap((meter) => {
    const forward = fromHere(meter, names);
    return [meterTable(meter, names, colours), ...(forward ? [forward] : [])];
  });
  return {
    id: 'household',
    heading: "Your household's costs",
    intro: [
      'What each meter paid at its agreements, last month and over the last year, and what it would have paid at each compared tariff (an export meter: what it earned). £ including VAT.',
      'Only figures priced at published prices for every half-hour are ranked; a figure marked † or ‡ is shown but not compared.',
    ],
    tables,
  };
}

/** The meter's next 30 days from its last reading, at its agreement and at each compared tariff
 *  (compare_ahead): the expected cost, how much of it rests on published prices, and the rank
 *  (1 = cheapest; an export meter: earns most). Undefined when the rule has no expected use. */
export function fromHere(meter: CostData, names: ReadonlyMap<string, string>): PageTable | undefined {
  if (!meter.ahead || meter.ahead.rows.length === 0) return undefined;
  const named = (code: string) => (names.has(code) ? `${code} — ${names.get(code)}` : code);
  const from = String(meter.ahead.rows[0]!.horizon_from).slice(0, 10);
  const to = String(meter.ahead.rows[0]!.horizon_to).slice(0, 10);
  const pounds = (pence: unknown) => `£${(Number(pence) / 100).toFixed(2)}`;
  const rows = meter.ahead.rows.map((r) => {
    const total = r.total_inc_vat;
    const share = `${Math.round(Number(r.published_share ?? 0) * 100)} %`;
    const cost: PageCell = total === null
      ? { text: '—', mark: 'none', note: 'no prices stored for these days' }
      : Number(r.rank) === 1
        ? { text: pounds(total), mark: 'best', note: meter.isExport ? 'earns most' : 'cheapest expected' }
        : { text: pounds(total), mark: 'ranked' };
    return {
      label: `${r.is_current === true ? 'Your agreement: ' : ''}${named(String(r.tariff_code))}`,
      cells: [cost, { text: total === null ? '—' : share, mark: 'none' as const }],
    };
  });
  return {
    id: `ahead-${meter.mp}`,
    heading: `From here: the next 30 days (${from} to ${to})`,
    columns: ['At', meter.isExport ? 'Expected earnings' : 'Expected cost', 'From published prices'],
    rows,
    notes: [
      `As of the meter's last reading. Expected use: for each half-hour of the day, weekdays and weekends apart, the mean of its complete days among the 28 before (docs/decisions/expected-use.md); prices not yet published are estimated (docs/compare-ahead.md).`,
    ],
  };
}

/** One meter's table: a row per scenario, a column for the last month and one for the last year. */
export function meterTable(meter: CostData, names: ReadonlyMap<string, string>, colours: ReadonlyMap<string, string>): PageTable {
  const named = (code: string) => (names.has(code) ? `${code} — ${names.get(code)}` : code);
  const lastMonth = meter.summary.filter((f) => f.period === 'last_month');
  const lastYear = meter.summary.filter((f) => f.period === 'last_year');
  const periods = [lastMonth, lastYear].filter((p) => p.length > 0);
  const figure = (period: readonly CostFigure[], scenario: string) => period.find((f) => f.scenario === scenario);
  const agreed = agreedTariffs(meter.monthly);
  // a tariff the agreements were on throughout both periods is their row, not a second one
  const alone = meter.tariffs.filter((t) => periods.every((p) => figure(p, t)?.same_as_agreements) && sameThroughout(meter.monthly, t));
  const scenarios = ['actual', ...meter.tariffs.filter((t) => !alone.includes(t))];
  const marks = { carried: new Map<string, string>(), incomplete: false };
  const cell = (f: CostFigure | undefined): PageCell => {
    if (!f) return { text: '–', mark: 'none', note: 'no readings priced' };
    if (f.same_as_agreements) return { text: money(f.total_gbp), mark: 'same', note: 'the agreements were on this tariff' };
    if (!f.comparable || f.rank === null) {
      const why: string[] = [];
      if (f.carried_half_hours > 0) {
        why.push('† carried price');
        marks.carried.set(f.scenario, f.carried_from ?? '');
      }
      if (f.missing_half_hours > 0 || f.missing_prices > 0 || f.missing_readings > 0) {
        why.push('‡ incomplete');
        marks.incomplete = true;
      }
      return { text: money(f.total_gbp), mark: 'unranked', note: `${why.join(', ') || 'not comparable'}: not ranked` };
    }
    const best = meter.isExport ? 'earns most' : 'cheapest';
    const note = f.ranked === 1 ? 'the only figure that can be compared' : f.rank === 1 ? best : `${ordinal(f.rank)} of ${f.ranked}`;
    return { text: money(f.total_gbp), mark: f.rank === 1 ? 'best' : 'ranked', note };
  };
  const rows = scenarios.map((scenario) => ({
    swatch: colours.get(scenario) ?? COLORS.agreements,
    label: scenario === 'actual'
      ? `Your agreement${agreed.length === 1 ? '' : 's'}: ${agreed.map(named).join(', then ') || 'none'}`
      : named(scenario),
    cells: periods.map((p) => cell(figure(p, scenario))),
  }));
  const notes: string[] = [];
  if (marks.carried.size > 0) {
    const which = [...marks.carried].map(([s, from]) => `${s === 'actual' ? 'the agreements' : s} (a rate from ${from})`).join('; ');
    notes.push(`† Priced partly or wholly at a last published rate carried forward, not a price of that time: ${which}. Not ranked.`);
  }
  if (marks.incomplete) notes.push('‡ Incomplete: some half-hours have no reading or no price. Not ranked.');
  if (meter.summary.some((f) => f.energy_only)) notes.push('Energy only: no standing charges are stored for these tariffs.');
  if (periods.length > 0 && periods.every((p) => p.every((f) => f.rank === null))) {
    notes.push('No figure here can be ranked: each is priced partly at a carried rate or has half-hours missing.');
  }
  for (const t of alone) notes.push(`${named(t)}: the agreements throughout, so its figures are theirs.`);
  if (scenarios.length === 1) notes.push(`No other ${meter.isExport ? 'export ' : meter.fuel === 'gas' ? 'gas ' : ''}tariff has prices over these months to compare.`);
  const role = meterRole(meter);
  return {
    id: `household_${meter.mp}`,
    heading: `${role[0]!.toUpperCase()}${role.slice(1)} ${meter.mp}`,
    link: { href: `#meter_${meter.mp}`, text: 'month by month and day by day' },
    columns: [meter.isExport ? 'Earned at' : 'Paid at', ...periods.map(periodLabel)],
    rows,
    notes,
  };
}

function periodLabel(period: readonly CostFigure[]): string {
  const f = period[0]!;
  const name = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
  const short = f.days < f.calendar_days ? ` (readings on ${f.days} of ${f.calendar_days} days)` : '';
  if (f.period === 'last_month') return `Last month: ${name(f.first_month)}${short}`;
  const span = f.months === 1 ? name(f.first_month) : `${name(f.first_month)} – ${name(f.last_month)}`;
  return `${f.months === 12 ? 'Last 12 months' : `Last ${f.months} month${f.months === 1 ? '' : 's'} (the readings begin later)`}: ${span}${short}`;
}

function money(gbp: number | null): string {
  return gbp === null ? '–' : `£${gbp.toFixed(2)}`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}
