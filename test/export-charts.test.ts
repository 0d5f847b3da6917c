// The HTML report's charts: wall-clock ticks on days of 23, 24 and 25 hours, and what a day chart
// draws (price segments, gaps, negative bars, the cheapest window), rendered by Vega to SVG.
import { describe, expect, it } from 'vitest';
import { dayChartSpec, monthChartSpec, wallClockTicks, type DayPoint } from '../src/report/html/chartSpecs.js';
import { renderReportPage } from '../src/report/html/reportPage.js';
import { renderSvg } from '../src/report/html/renderSvg.js';
import { plainSvg } from './helpers/plainSvg.js';

describe('wallClockTicks', () => {
  it.each([
    // local date, hours elapsed at 00:00, 03:00 … 24:00 wall time
    ['2024-03-31', [0, 2, 5, 8, 11, 14, 17, 20, 23]], // clocks forward at 01:00: 03:00 BST is 2 h after midnight
    ['2024-10-27', [0, 4, 7, 10, 13, 16, 19, 22, 25]], // clocks back at 02:00: 03:00 GMT is 4 h after midnight
    ['2024-06-01', [0, 3, 6, 9, 12, 15, 18, 21, 24]],
    ['2025-03-30', [0, 2, 5, 8, 11, 14, 17, 20, 23]],
    ['2025-10-26', [0, 4, 7, 10, 13, 16, 19, 22, 25]],
  ])('%s', (date, hours) => {
    const ticks = wallClockTicks(date);
    expect(ticks.values).toEqual(hours);
    expect(ticks.labels).toEqual(['00:00', '03:00', '06:00', '09:00', '12:00', '15:00', '18:00', '21:00', '24:00']);
  });
});

describe('day chart', () => {
  const points: DayPoint[] = Array.from({ length: 46 }, (_, i) => ({ period: i + 1, price: 10 + (i % 7), negative: false }));
  points[20] = { period: 21, price: -2.5, negative: true };
  points[21] = { period: 22, price: -1, negative: true };

  it('spans the real length of the day and draws each half-hour, breaking at a missing one', () => {
    const spec = dayChartSpec({ localDate: '2024-03-31', slotsInDay: 46, points: points.filter((p) => p.period !== 30), title: 't' }) as unknown as {
      layer: { data: { values: { h: number; p: number | null }[] }; mark: { type: string } }[];
    };
    const line = spec.layer.find((l) => l.mark.type === 'line')!.data.values;
    expect(line.at(-1)).toEqual(expect.objectContaining({ h: 23, p: points[45]!.price }));
    expect(line.filter((v) => v.p === null)).toEqual([expect.objectContaining({ h: 14.75 })]);
    expect(line.length).toBe(45 * 2 + 1);
  });

  it('renders negative half-hours as red bars and the cheapest window as a green band', async () => {
    const svg = await renderSvg(dayChartSpec({ localDate: '2024-03-31', slotsInDay: 46, points, cheapest: { period: 21, slots: 4 }, title: 'Sunday' }));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/fill="#d62728"/g)).toHaveLength(2);
    expect(svg.match(/fill="#2ca02c"/g)).toHaveLength(1);
    expect(svg).toContain('>03:00<');
    expect(svg).not.toMatch(/https?:\/\//);
    const without = await renderSvg(dayChartSpec({ localDate: '2024-03-31', slotsInDay: 46, points: points.map((p) => ({ ...p, negative: false })), title: 'Sunday' }));
    expect(without).not.toContain('fill="#d62728"');
    expect(without).not.toContain('fill="#2ca02c"');
  });

  it('renders the same spec to the same SVG every time', async () => {
    const spec = dayChartSpec({ localDate: '2024-10-27', slotsInDay: 50, points: [], title: 'empty' });
    expect(await renderSvg(spec)).toBe(await renderSvg(spec));
  });

  it('draws each chart as its spec draws it plainly: its own data, titles, size and axes', async () => {
    // charts drawn one after another that differ in their data, titles, price axis, day length or
    // month length: nothing of one may reach the next
    const points = (scale: number, n: number): DayPoint[] =>
      Array.from({ length: n }, (_, i) => ({ period: i + 1, price: scale * (i % 7) - 2, negative: scale * (i % 7) - 2 < 0 }));
    const day = (localDate: string, slotsInDay: number, yDomain: [number, number] | undefined, scale: number, title: string) => dayChartSpec({
      localDate, slotsInDay, ...(yDomain ? { yDomain } : {}), title, subtitle: [`${title} first`, 'second'], points: points(scale, slotsInDay),
      cheapest: { period: 3, slots: 4 },
    });
    const month = (m: string, daysInMonth: number, yDomain: [number, number]) => monthChartSpec({
      month: m, daysInMonth, yDomain, title: m, subtitle: ['x', 'y'],
      days: Array.from({ length: daysInMonth }, (_, i) => ({ day: i + 1, min: -1 - (i % 3), mean: i % 9, max: 10 + i, negativeSlots: i % 4, cheapestMean: i % 5 })),
    });
    const specs = [
      day('2024-06-01', 48, undefined, 1, 'a'), day('2024-06-02', 48, undefined, 40, 'a much longer title than the first'),
      day('2024-06-01', 48, [-5, 10], 1, 'b'), day('2024-06-02', 48, [-10, 45], 8, 'c'), day('2024-10-27', 50, [-5, 10], 1, 'd'),
      month('2024-02', 29, [-5, 40]), month('2023-02', 28, [-10, 60]), month('2024-03', 31, [-5, 40]),
    ];
    const drawn = [];
    for (const spec of specs) drawn.push(await renderSvg(spec));
    for (const [i, spec] of specs.entries()) expect(drawn[i]).toBe(await plainSvg(spec));
    expect(new Set(drawn).size).toBe(specs.length);
  });
});

describe('report page', () => {
  it('escapes text and holds nothing that loads from elsewhere', () => {
    const html = renderReportPage({
      title: 'T <&>', description: 'd', limits: 'l',
      series: [{ id: 'a"b', heading: '<x>', facts: [['k', 'v & w']], days: [{ kind: 'day', period: '2024-01-01', svg: '<svg></svg>' }], months: [], monthsNotCharted: 3 }],
    });
    expect(html).toContain('<title>T &lt;&amp;&gt;</title>');
    expect(html).toContain('id="a&quot;b"');
    expect(html).toContain('3 older months are shown only in the all-months chart.');
    expect(html).not.toMatch(/https?:\/\/|<script|<link/);
  });
});
