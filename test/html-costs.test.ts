// The HTML report's cost section and month charts (issue 26, item 8), on the demo's warehouse (the
// sandbox household's year, 2023-03 → 2024-02): every scenario drawn (bars side by side, so the
// agreements never hide the tariff they equal), tariffs named in full with product and region,
// the subtitle saying what the totals include, months counted as months, and one price axis for
// all the month charts of a series; day charts of series sharing days each drawn from their own
// series. The Vega-Lite specs are read beside their SVGs.
import { copyFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoWarehouse } from '../src/demo/buildDemoWarehouse.js';
import { silentLogger } from '../src/log/createLogger.js';
import { prepareCostScope } from '../src/report/costReports.js';
import { resolveScope, scopeParams } from '../src/report/exportScope.js';
import { buildHtmlReport, type HtmlReport } from '../src/report/html/buildHtmlReport.js';
import { plainSvg } from './helpers/plainSvg.js';
import { HOUSEHOLD } from '../src/sandbox/loadSandboxData.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { runCli } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const AGILE = 'E-1R-AGILE-18-02-21-J';
const VAR = 'E-1R-VAR-17-01-11-A';
const tmp = tempDir('tariffs-html-costs-');
const db = tmp.file('demo.duckdb');
let report: HtmlReport;
let standingCharges: number;

type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  await buildDemoWarehouse(db, silentLogger());
  const warehouse = await Warehouse.open(db, { readOnly: true });
  try {
    const from = new Date(HOUSEHOLD.from);
    const to = new Date(HOUSEHOLD.to);
    const scope = await resolveScope(warehouse, { tariffs: [AGILE], from, to });
    const params = { ...scopeParams(scope), payment: 'DIRECT_DEBIT', cost_from: from.toISOString(), cost_to: to.toISOString() };
    expect(await prepareCostScope(warehouse, params)).toBe(3);
    report = await buildHtmlReport(warehouse, scope, silentLogger(), params);
    standingCharges = Number((await warehouse.one(`SELECT count(*) AS n FROM standing_charges
      WHERE tariff_code IN ('${AGILE}', '${VAR}', '${HOUSEHOLD.exportTariff}', '${HOUSEHOLD.gasTariff}')`))!.n);
  } finally {
    warehouse.close();
  }
}, 120_000);
afterAll(() => tmp.remove());

const specOf = (series: string, kind: string) => report.specs.find((s) => s.series === series && s.kind === kind)!.spec as Spec;

describe('the page as drawn', () => {
  it('holds each chart as its spec draws it plainly (its axes, titles and data its own)', async () => {
    expect(report.specs.length).toBe(report.charts);
    for (const { series, kind, period, spec } of report.specs) {
      const alone = await plainSvg(spec);
      expect(report.html.includes(alone), `${series} ${kind} ${period}`).toBe(true);
    }
  });
});

describe('the HTML cost section', () => {
  it('draws every scenario every month, side by side, named in full with product and region', () => {
    const spec = specOf(HOUSEHOLD.importMpan, 'monthly_cost');
    expect(spec.mark.type).toBe('bar');
    expect(spec.encoding.xOffset.field).toBe('label');
    expect(spec.encoding.color.legend.labelLimit).toBe(0);
    const values = spec.data.values as { scenario: string; label: string; month: string; total_gbp: number }[];
    const months = [...new Set(values.map((v) => v.month))].sort();
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2023-03');
    expect(months.at(-1)).toBe('2024-02');
    for (const scenario of ['actual', AGILE, VAR]) {
      expect(values.filter((v) => v.scenario === scenario).map((v) => v.month).sort(), scenario).toEqual(months);
    }
    // the agreements equal Agile until August and the variable tariff from September: still a bar of their own
    const at = (scenario: string, month: string) => values.find((v) => v.scenario === scenario && v.month === month)!.total_gbp;
    expect(at('actual', '2023-05')).toBe(at(AGILE, '2023-05'));
    expect(at('actual', '2023-11')).toBe(at(VAR, '2023-11'));
    const labels = [...new Set(values.map((v) => v.label))];
    expect(labels).toEqual(expect.arrayContaining([
      `${AGILE} — Agile Octopus, South Eastern England`,
      `${VAR} — Flexible Octopus, Eastern England`,
      `actual: the agreements (${AGILE}, then ${VAR})`,
    ]));
    // in the SVG too, whole (vega truncates a label past its labelLimit with …)
    expect(report.html).toContain(`${AGILE} — Agile Octopus, South Eastern England`);
    expect(report.html).not.toMatch(/E-1R-AGILE-18-02-…/);
  });

  it("the export and gas meters' one tariff, their agreement throughout, is drawn once: as the agreements' bar", () => {
    // issue 54: each got two identical bars a month, the agreements and the tariff they were on
    for (const [mp, tariff] of [[HOUSEHOLD.exportMpan, HOUSEHOLD.exportTariff], [HOUSEHOLD.gasMprn, HOUSEHOLD.gasTariff]] as const) {
      const spec = specOf(mp, 'monthly_cost');
      const values = spec.data.values as { scenario: string; label: string; month: string; total_gbp: number }[];
      expect([...new Set(values.map((v) => v.scenario))], mp).toEqual(['actual']);
      expect(values.map((v) => v.month), mp).toEqual([...new Set(values.map((v) => v.month))]);
      expect(values, mp).toHaveLength(12);
      expect(values[0]!.label, mp).toBe(`actual: the agreements (${tariff})`);
      expect(spec.encoding.color.scale.domain, mp).toEqual([`actual: the agreements (${tariff})`]);
      const section = report.html.slice(report.html.indexOf(`id="meter_${mp}"`));
      expect(section.split('</section>')[0], mp).toContain(`${tariff}: the agreements throughout, drawn as their bar`);
    }
    // the import meter's agreements changed tariff: every tariff keeps its bars beside theirs
    expect(new Set((specOf(HOUSEHOLD.importMpan, 'monthly_cost').data.values as { scenario: string }[]).map((v) => v.scenario)))
      .toEqual(new Set(['actual', AGILE, VAR]));
  });

  it("the household's last year equals tariff_comparison's totals of the year", async () => {
    const warehouse = await Warehouse.open(db, { readOnly: true });
    try {
      const expected = await warehouse.all(`SELECT meter_point, scenario, CAST(total_gbp AS DOUBLE) AS total_gbp
        FROM portfolio_comparison(['${AGILE}', '${VAR}'], CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), meters := ['${HOUSEHOLD.importMpan}'])
        ORDER BY scenario`, { from: new Date(HOUSEHOLD.from).toISOString(), to: new Date(HOUSEHOLD.to).toISOString() });
      expect(expected).toHaveLength(3);
      const household = report.html.slice(report.html.indexOf(`id="household_${HOUSEHOLD.importMpan}"`)).split('</table>')[0]!;
      expect(household).toContain('<th>Last 12 months: March 2023 – February 2024</th>');
      const rows = [...household.matchAll(/<tr><td>(?:<i[^>]*><\/i>)?([^<]*)<\/td><td[^>]*>[^<]*(?:<small>[^<]*<\/small>)?<\/td><td[^>]*>£([\d.]+)/g)]
        .map(([, label, gbp]) => [label!.startsWith('Your agreements') ? 'actual' : label!.split(' — ')[0]!, Number(gbp)] as const);
      expect(new Map(rows)).toEqual(new Map(expected.map((r) => [r.scenario, r.total_gbp])));
    } finally {
      warehouse.close();
    }
  });

  it('says what the totals include and counts months as months', () => {
    expect(standingCharges).toBe(0);
    expect(specOf(HOUSEHOLD.importMpan, 'monthly_cost').title.subtitle).toBe(
      'monthly total, £ inc VAT, at the agreements and at each compared tariff: energy only: no standing charges are stored for these tariffs');
    expect(specOf(HOUSEHOLD.exportMpan, 'monthly_cost').title.subtitle).toMatch(/no standing charge\)$/);
    const section = (mp: string) => report.html.slice(report.html.indexOf(`id="meter_${mp}"`));
    // 12 months, each incomplete (no standing charges, said in words) for the import meter, none for the export meter
    expect(section(HOUSEHOLD.importMpan)).toMatch(/12; incomplete: 12 of 12 — no standing charges stored \(every one\)/);
    expect(section(HOUSEHOLD.exportMpan)).toMatch(/12; incomplete: 0 of 12</);
    expect(section(HOUSEHOLD.importMpan)).toContain('priced partly or wholly at a last published rate (open-ended, from 2020-11-01)');
  });
});

describe('the month charts of a price series', () => {
  it('share one y-domain that holds every charted day', () => {
    const months = report.specs.filter((s) => s.kind === 'month' && s.series === AGILE);
    expect(months.length).toBeGreaterThanOrEqual(2);
    const domains = months.map((m) => (m.spec as Spec).layer[0].encoding.y.scale?.domain as [number, number] | undefined);
    expect(domains.every((d) => d !== undefined && d[0] === domains[0]![0] && d[1] === domains[0]![1])).toBe(true);
    const days = months.flatMap((m) => (m.spec as Spec).layer[0].data.values as { min: number; max: number }[]);
    const [lo, hi] = domains[0]!;
    expect(lo).toBeLessThanOrEqual(Math.min(0, ...days.map((d) => d.min)));
    expect(hi).toBeGreaterThanOrEqual(Math.max(...days.map((d) => d.max)));
  });
});

describe('the day charts of series with the same days', () => {
  it("each draw their own series' prices and say its day and cheapest 2 hours, as rate_slots has them", async () => {
    const tariffs = ['E-1R-AGILE-18-02-21-A', 'E-1R-AGILE-18-02-21-C', AGILE];
    const warehouse = await Warehouse.open(db, { readOnly: true });
    try {
      const scope = await resolveScope(warehouse, { tariffs, from: new Date('2020-09-20T00:00:00+01:00'), to: new Date('2020-10-01T00:00:00+01:00') });
      const days = (await buildHtmlReport(warehouse, scope, silentLogger())).specs.filter((s) => s.kind === 'day');
      expect([...new Set(days.map((d) => d.series))].sort()).toEqual(tariffs);
      for (const { series, period, spec } of days) {
        const [stats, window] = (spec as Spec).title.subtitle as [string, string];
        // the day's prices, and its cheapest four consecutive half-hours (the earliest of equal means
        // to 1e-9 p, whatever order the sums were taken in)
        const day = (await warehouse.one(`SELECT min(value_inc_vat) AS lo, max(value_inc_vat) AS hi FROM rate_slots
          WHERE tariff_code = $t AND local_date = CAST($d AS DATE)`, { t: series, d: period }))!;
        const best = await warehouse.one(`
          SELECT strftime(timezone('Europe/London', a.slot_start), '%H:%M') AS start_at,
                 strftime(timezone('Europe/London', a.slot_start + INTERVAL 2 HOUR), '%H:%M') AS end_at, avg(b.value_inc_vat) AS mean
          FROM rate_slots AS a JOIN rate_slots AS b ON b.tariff_code = a.tariff_code AND b.local_date = a.local_date
            AND b.slot_start >= a.slot_start AND b.slot_start < a.slot_start + INTERVAL 2 HOUR
          WHERE a.tariff_code = $t AND a.local_date = CAST($d AS DATE)
          GROUP BY a.slot_start HAVING count(*) = 4
          ORDER BY round(mean, 9), a.slot_start LIMIT 1`, { t: series, d: period });
        // the price line: each half-hour's price, once per half-hour (drawn as a step from its start to its end)
        const line = ((spec as Spec).layer as Spec[]).find((l) => l.mark.type === 'line')!.data.values as { p: number | null }[];
        const drawn = line.filter((v) => v.p !== null).filter((_, i) => i % 2 === 0).map((v) => v.p!);
        const prices = (await warehouse.all(`SELECT value_inc_vat AS v FROM rate_slots
          WHERE tariff_code = $t AND local_date = CAST($d AS DATE) ORDER BY slot_start`, { t: series, d: period })).map((r) => Number(r.v));
        expect(drawn.length, `${series} ${period}`).toBe(prices.length);
        expect(Math.max(...drawn.map((p, i) => Math.abs(p - prices[i]!))), `${series} ${period}`).toBeLessThanOrEqual(5e-5 + 1e-9);
        expect(stats, `${series} ${period}`).toContain(`min ${Number(day.lo).toFixed(2)} · `);
        expect(stats, `${series} ${period}`).toContain(`max ${Number(day.hi).toFixed(2)}`);
        if (best === undefined) {
          expect(window, `${series} ${period}`).toMatch(/no complete 2-hour window/);
        } else {
          const said = /^cheapest 2 h (\d\d:\d\d)–(\d\d:\d\d) at (-?[\d.]+)/.exec(window)!;
          expect(said.slice(1, 3), `${series} ${period}`).toEqual([best.start_at, best.end_at]);
          expect(Math.abs(Number(said[3]) - Number(best.mean)), `${series} ${period}`).toBeLessThanOrEqual(0.005 + 1e-9);
        }
      }
    } finally {
      warehouse.close();
    }
  });
});

describe('a cost query that fails', () => {
  it('ends the export with its error and exit 1, not an unhandled rejection', async () => {
    const broken = tmp.file('broken.duckdb');
    copyFileSync(db, broken);
    const warehouse = await Warehouse.open(broken);
    try {
      await warehouse.run('DROP MACRO TABLE portfolio_comparison');
    } finally {
      warehouse.close();
    }
    const result = await runCli(['export', '--db', broken, '--out', tmp.file('broken-out'), '--format', 'html,csv']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^tariffs: Catalog Error: Table Function with name portfolio_comparison does not exist/m);
    expect(result.stderr).not.toMatch(/node:internal|Node\.js v/);
  });
});
