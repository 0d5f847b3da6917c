// The HTML page says what it shows (issue 43, item 4), on the demo's warehouse with an import and an
// export tariff and the household's costs: the header's count of price series equals the price
// sections, each heading matches the charts under it, the export tariff's day charts mark its
// dearest 2 hours (the import tariff's its cheapest; read from the chart specs), and "incomplete"
// says why in words. The page is the household's (issue 54, item 2): it opens with its meters'
// costs, carried and incomplete figures marked and never ranked, then the price sections, the
// newest first, their older history folded; one meaning per colour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareAhead } from '../src/analytics/compareAhead.js';
import { silentLogger } from '../src/log/createLogger.js';
import { prepareCostScope } from '../src/report/costReports.js';
import { resolveScope, scopeParams } from '../src/report/exportScope.js';
import { buildHtmlReport, type HtmlReport } from '../src/report/html/buildHtmlReport.js';
import { COLORS, SCENARIO_COLORS } from '../src/report/html/chartSpecs.js';
import { HOUSEHOLD } from '../src/sandbox/loadSandboxData.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { tempDir } from './helpers/warehouseTools.js';

const IMPORT = 'E-1R-AGILE-18-02-21-J';
const EXPORT = HOUSEHOLD.exportTariff;
type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const tmp = tempDir('tariffs-html-page-');
const db = tmp.file('demo.duckdb');
let report: HtmlReport;
let standingCharges: number;
/** compare_ahead's rows for the import meter as of the page's cost range's end, at its tariffs. */
let ahead: Awaited<ReturnType<typeof compareAhead>>;

beforeAll(async () => {
  await copyOfDemoWarehouse(db);
  const warehouse = await Warehouse.open(db, { readOnly: true });
  try {
    // to 2023-11-05: the last 14 days drawn hold the fall-back day 2023-10-29
    const from = new Date(HOUSEHOLD.from);
    const to = new Date('2023-11-05T00:00:00Z');
    const scope = await resolveScope(warehouse, { tariffs: [IMPORT, EXPORT], from, to });
    const params = { ...scopeParams(scope), payment: 'DIRECT_DEBIT', cost_from: from.toISOString(), cost_to: to.toISOString() };
    await prepareCostScope(warehouse, params);
    report = await buildHtmlReport(warehouse, scope, silentLogger(), params);
    ahead = await compareAhead(warehouse, {
      meter: HOUSEHOLD.importMpan, asOf: to, horizon: '30d', payment: 'DIRECT_DEBIT', rounded: true, tariffs: [IMPORT, 'E-1R-VAR-17-01-11-A'],
    });
    standingCharges = Number((await warehouse.one(`SELECT count(*) AS n FROM standing_charges
      WHERE tariff_code IN (SELECT tariff_code FROM agreements WHERE meter_point = $meter)`, { meter: HOUSEHOLD.importMpan }))!.n);
  } finally {
    warehouse.close();
  }
}, 300_000);
afterAll(() => tmp.remove());

/** The page's sections: id, h3 headings each with the kinds of the figures under it. */
function sections(html: string) {
  return html.split('<section id="').slice(1).map((part) => {
    const id = part.slice(0, part.indexOf('"'));
    const blocks = [...part.matchAll(/<h3>([^<]*)<\/h3>(?:<\/summary>)?\n<div class="charts">([\s\S]*?)\n<\/div>/g)].map(([, heading, charts]) => ({
      heading: heading!, kinds: [...charts!.matchAll(/data-kind="(\w+)"/g)].map((m) => m[1]!),
    }));
    return { id, blocks, text: part };
  });
}

/** Per settlement period, the price a day chart draws (its line: a flat segment per half-hour). */
function pricesOf(spec: Spec): Map<number, number> {
  const line = spec.layer.find((l: Spec) => l.mark.type === 'line').data.values as { h: number; p: number | null }[];
  const prices = new Map<number, number>();
  for (let i = 0; i < line.length; i++) {
    const [start, end] = [line[i]!, line[i + 1]];
    if (start.p === null || !end || end.p !== start.p || end.h !== start.h + 0.5) continue;
    prices.set(start.h * 2 + 1, start.p); // a priced half-hour: its start and end points
    i += 1;
  }
  return prices;
}

describe('the HTML page', () => {
  it('counts in its header the price series and meters whose sections follow', () => {
    const all = sections(report.html).filter((s) => s.id !== 'household');
    const meters = all.filter((s) => s.id.startsWith('meter_')).length;
    const header = /<p class="note">The costs of (\d+) meters?, then (\d+) price series/.exec(report.html);
    expect(header).not.toBeNull();
    expect(meters).toBeGreaterThan(0);
    expect([Number(header![2]), Number(header![1])]).toEqual([all.length - meters, meters]);
    expect(all.length - meters).toBe(2);
  });

  it("opens with the household's costs, then its meters' charts, then the price sections, the newest first", () => {
    const all = sections(report.html);
    expect(all[0]!.id).toBe('household');
    // nothing but the header before it: no chart, no list of tariffs
    const header = report.html.slice(report.html.indexOf('<body>'), report.html.indexOf('<section id="household"'));
    expect(header).toMatch(/<h1>/);
    expect(header).not.toMatch(/<svg|<ul|<section|<table/);
    // a table per meter, each of its meter's figures: last month and the last year
    const tables = [...all[0]!.text.matchAll(/<h3 id="household_(\d+)">/g)].map((m) => m[1]);
    const meters = all.filter((s) => s.id.startsWith('meter_')).map((s) => s.id.slice('meter_'.length));
    expect(tables).toEqual(meters);
    expect(meters).toEqual([HOUSEHOLD.importMpan, HOUSEHOLD.exportMpan, HOUSEHOLD.gasMprn].sort());
    expect(all.slice(1, 1 + meters.length).map((s) => s.id)).toEqual(meters.map((m) => `meter_${m}`));
    expect(all[0]!.text).toMatch(/<th>Last month: October 2023<\/th><th>Last 8 months \(the readings begin later\): March 2023 – October 2023<\/th>/);
    // then the prices, each section's newest day first, none newer than the section before's
    const prices = all.slice(1 + meters.length);
    expect(prices.map((s) => s.id).sort()).toEqual([EXPORT, IMPORT].sort());
    const newest = prices.map((s) => [...s.text.matchAll(/data-kind="day" data-period="([^"]+)"/g)].map((m) => m[1]!));
    for (const days of newest) expect(days).toEqual([...days].sort().reverse());
    for (let i = 1; i < newest.length; i++) expect(newest[i]![0]! <= newest[i - 1]![0]!).toBe(true);
    // older history folded away, the days drawn open
    for (const section of prices) {
      expect(section.text).toMatch(/<details class="older">\n<summary><h3>Earlier months/);
      expect(section.text).toMatch(/<details class="older">\n<summary><h3>All months<\/h3><\/summary>\n<div class="charts">\n<figure class="chart" data-kind="history"/);
      expect(section.text).not.toMatch(/<summary><h3>Last \d+ local days/);
    }
  });

  it('marks carried-price and incomplete figures plainly and ranks only the others', () => {
    const household = sections(report.html)[0]!.text;
    const table = (mp: string) => household.slice(household.indexOf(`id="household_${mp}"`)).split('</table>')[0]!;
    const cells = (mp: string) => [...table(mp).matchAll(/<tr><td>(?:<i[^>]*><\/i>)?([^<]*)<\/td>((?:<td class="figure \w+">[^<]*(?:<small>[^<]*<\/small>)?<\/td>)+)<\/tr>/g)]
      .map(([, label, tds]) => ({
        label: label!,
        cells: [...tds!.matchAll(/<td class="figure (\w+)">([^<]*)(?:<small>([^<]*)<\/small>)?<\/td>/g)].map(([, mark, text, note]) => ({ mark: mark!, text: text!, note: note ?? '' })),
      }));
    const imported = cells(HOUSEHOLD.importMpan);
    expect(imported.map((r) => r.label.split(' — ')[0])).toEqual([
      `Your agreements: ${IMPORT}`, IMPORT, 'E-1R-VAR-17-01-11-A',
    ]);
    // the variable tariff is priced at its 2020 rate carried forward: marked, never ranked, never "cheapest"
    const carried = imported[2]!.cells;
    expect(carried[1]).toEqual({ mark: 'unranked', text: expect.stringMatching(/^£\d+\.\d\d$/), note: '† carried price: not ranked' });
    expect(carried[0]!.mark).toBe('same'); // in October the agreements were on it
    // the agreements were on it from September: carried too
    expect(imported[0]!.cells.map((c) => c.mark)).toEqual(['unranked', 'unranked']);
    // Agile's figures, priced at published prices, are the only ranked ones, although dearer than the carried ones
    expect(imported[1]!.cells.map((c) => [c.mark, c.note])).toEqual([['best', 'the only figure that can be compared'], ['best', 'the only figure that can be compared']]);
    const gbp = (text: string) => Number(text.slice(1));
    expect(gbp(carried[1]!.text)).toBeLessThan(gbp(imported[1]!.cells[1]!.text));
    expect(household).toMatch(/† Priced partly or wholly at a last published rate carried forward, not a price of that time: the agreements \(a rate from 2020-11-01\); E-1R-VAR-17-01-11-A \(a rate from 2020-11-01\)\. Not ranked\./);
    // every figure marked † or ‡ is unranked; every ranked figure carries neither
    for (const mp of [HOUSEHOLD.importMpan, HOUSEHOLD.exportMpan, HOUSEHOLD.gasMprn]) {
      for (const row of cells(mp)) {
        for (const cell of row.cells) {
          if (/[†‡]/.test(cell.note)) expect(cell.mark, `${mp} ${row.label}`).toBe('unranked');
          if (cell.mark === 'best' || cell.mark === 'ranked') expect(cell.note, `${mp} ${row.label}`).not.toMatch(/[†‡]/);
        }
      }
    }
    // the gas meter's figures are all carried: nothing ranked, said in words
    expect(cells(HOUSEHOLD.gasMprn).flatMap((r) => r.cells.map((c) => c.mark))).toEqual(['unranked', 'unranked']);
    expect(table(HOUSEHOLD.gasMprn) + household.slice(household.indexOf(`id="household_${HOUSEHOLD.gasMprn}"`)))
      .toContain('No figure here can be ranked');
    // the monthly chart draws the carried months pale
    const bars = report.specs.find((s) => s.series === HOUSEHOLD.importMpan && s.kind === 'monthly_cost')!.spec as Spec;
    expect(bars.encoding.opacity.condition.test).toBe('!datum.comparable');
    const values = bars.data.values as { scenario: string; comparable: boolean }[];
    expect(values.filter((v) => v.scenario === 'E-1R-VAR-17-01-11-A').every((v) => !v.comparable)).toBe(true);
    expect(values.filter((v) => v.scenario === IMPORT).every((v) => v.comparable)).toBe(true);
  });

  it("adds under each meter its next 30 days from here, compare_ahead's totals, the cheapest marked", () => {
    const household = sections(report.html)[0]!.text;
    const table = household.slice(household.indexOf(`id="ahead-${HOUSEHOLD.importMpan}"`)).split('</table>')[0]!;
    expect(table).toMatch(/From here: the next 30 days \(2023-11-05 to /);
    const figures = [...table.matchAll(/<td class="figure (\w+)">(£[\d.]+)/g)].map(([, mark, text]) => ({ mark, text }));
    expect(ahead.length).toBe(2);
    expect(figures).toEqual(ahead.map((r) => ({
      mark: Number(r.rank) === 1 ? 'best' : 'ranked',
      text: `£${(Number(r.total_inc_vat) / 100).toFixed(2)}`,
    })));
    expect(figures.filter((f) => f.mark === 'best')).toHaveLength(1);
  });

  it('gives each colour one meaning across the page', () => {
    const colours = (kinds: string[]) => new Set(report.specs.filter((s) => kinds.includes(s.kind))
      .flatMap((s) => JSON.stringify(s.spec).match(/#[0-9a-f]{6}/gi) ?? []).map((c) => c.toLowerCase()));
    const prices = colours(['day', 'month', 'history']);
    const bars = colours(['monthly_cost']);
    const consumption = colours(['daily_consumption']);
    expect(prices.has(COLORS.negative) && prices.has(COLORS.dearest)).toBe(true);
    expect([...bars].filter((c) => prices.has(c))).toEqual([]);
    // the consumption chart's line is a price (the price's colour), its bars are not a price range
    expect([...consumption].filter((c) => prices.has(c))).toEqual([COLORS.price]);
    expect(bars.has(COLORS.agreements) && bars.has(SCENARIO_COLORS[0])).toBe(true);
  });

  it('heads each block of charts with what is under it', () => {
    for (const section of sections(report.html).filter((s) => s.id !== 'household')) {
      expect(section.blocks.length, section.id).toBeGreaterThan(0);
      for (const { heading, kinds } of section.blocks) {
        const what = `${section.id}: ${heading}`;
        if (section.id.startsWith('meter_')) {
          expect(heading, what).toMatch(/^(Monthly (cost|earnings) at the agreements|Daily (consumption|export) and the price paid, \d+ local days)/);
          expect(heading, what).not.toMatch(/Earlier months|All months/);
          expect(kinds, what).toHaveLength(1);
          continue;
        }
        const days = /^Last (\d+) local days?$/.exec(heading);
        const months = /^Earlier months \((?:one month|(\d+), newest first)\)$/.exec(heading);
        if (heading === 'All months') expect(kinds, what).toEqual(['history']);
        else if (days) expect(kinds, what).toEqual(Array(Number(days[1])).fill('day'));
        else if (months) expect(kinds, what).toEqual(Array(months[1] ? Number(months[1]) : 1).fill('month'));
        else expect.unreachable(what);
        if (months?.[1]) expect(Number(months[1]), what).toBeGreaterThan(1);
      }
    }
  });

  it('marks the export tariff\'s dearest 2 hours of each day, and the import tariff\'s cheapest', () => {
    let fallBack = 0;
    for (const [tariff, highest] of [[EXPORT, true], [IMPORT, false]] as const) {
      const days = report.specs.filter((s) => s.series === tariff && s.kind === 'day');
      expect(days.length, tariff).toBe(14);
      for (const { period, spec } of days as { period: string; spec: Spec }[]) {
        const prices = pricesOf(spec);
        const rects = spec.layer.filter((l: Spec) => l.mark.type === 'rect' && l.mark.opacity < 0.5);
        expect(rects, `${tariff} ${period}`).toHaveLength(1);
        expect(rects[0].mark.color).toBe(highest ? COLORS.dearest : COLORS.cheapest);
        const { h, h2 } = rects[0].data.values[0] as { h: number; h2: number };
        const first = h * 2 + 1;
        expect(h2 - h).toBe(2);
        const mean = (start: number) => [0, 1, 2, 3].reduce((sum, i) => sum + prices.get(start + i)!, 0) / 4;
        const means = [...prices.keys()].filter((p) => [1, 2, 3].every((i) => prices.has(p + i))).map(mean);
        const best = highest ? Math.max(...means) : Math.min(...means);
        expect(mean(first), `${tariff} ${period}`).toBeCloseTo(best, 3);
        expect(Math.max(...means)).toBeGreaterThan(Math.min(...means)); // the two ends differ: the test tells them apart
        expect(spec.title.subtitle.join(' '), `${tariff} ${period}`).toContain(highest ? 'dearest 2 h' : 'cheapest 2 h');
        if (prices.size === 50) fallBack += 1;
      }
    }
    expect(fallBack).toBe(2); // 2023-10-29, a day of 50 half-hours, in both series
  });

  it('says in words why months are incomplete', () => {
    expect(standingCharges).toBe(0); // none for the import meter's tariffs
    const meter = sections(report.html).find((s) => s.id === `meter_${HOUSEHOLD.importMpan}`)!;
    const said = /incomplete: (\d+) of (\d+) — ([^<]*)<\/dd>/.exec(meter.text);
    expect(said).not.toBeNull();
    expect(said![1]).toBe(said![2]);
    expect(said![3]).toContain('no standing charges stored (every one)');
    expect(report.html).not.toMatch(/scenario-days|see monthly_costs/);
  });
});
