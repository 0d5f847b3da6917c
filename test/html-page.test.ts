// The HTML page says what it shows (issue 43, item 4), on the demo's warehouse with an import and an
// export tariff and the household's costs: the header's count of price series equals the price
// sections, each heading matches the charts under it, the export tariff's day charts mark its
// dearest 2 hours (the import tariff's its cheapest; read from the chart specs), and "incomplete"
// says why in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/log/createLogger.js';
import { prepareCostScope } from '../src/report/costReports.js';
import { resolveScope, scopeParams } from '../src/report/exportScope.js';
import { buildHtmlReport, type HtmlReport } from '../src/report/html/buildHtmlReport.js';
import { COLORS } from '../src/report/html/chartSpecs.js';
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
    const blocks = [...part.matchAll(/<h3>([^<]*)<\/h3>\n<div class="charts">([\s\S]*?)\n<\/div>/g)].map(([, heading, charts]) => ({
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
    const all = sections(report.html);
    const meters = all.filter((s) => s.id.startsWith('meter_')).length;
    const header = /<p class="note">(\d+) price series(?: and the costs of (\d+) meters?)?;/.exec(report.html);
    expect(header).not.toBeNull();
    expect(meters).toBeGreaterThan(0);
    expect([Number(header![1]), Number(header![2])]).toEqual([all.length - meters, meters]);
    expect(all.length - meters).toBe(2);
  });

  it('heads each block of charts with what is under it', () => {
    for (const section of sections(report.html)) {
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
  });
});
