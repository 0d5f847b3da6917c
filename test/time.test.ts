// Europe/London time functions, table-driven across every clock change 2018–2030, cross-checked
// against date-fns-tz (Intl's tz database) and against real half-hourly prices over two clock changes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.js';
import {
  InvalidTimeError,
  addLocalDays,
  clockChanges,
  formatLocal,
  formatUtc,
  isInLocalTimeBand,
  localDateOf,
  localDatesBetween,
  localDayBounds,
  localMinutesOfDay,
  parseLocalTimeBand,
  parseUserDate,
  parseUserDateTime,
  settlementPeriod,
  slotsInLocalDay,
  utcOffsetMinutes,
} from '../src/time/index.js';

const TZ = 'Europe/London';
const HALF_HOUR = 30 * 60_000;
// Recorded real prices shipped with the repository (data/sandbox/PROVENANCE.md).
const REAL = fileURLToPath(new URL('../data/sandbox', import.meta.url));

// Last Sundays of March and October, read off a calendar (and `zdump -v Europe/London`).
const CLOCK_CHANGES: ReadonlyArray<readonly [year: number, springForward: string, fallBack: string]> = [
  [2018, '2018-03-25', '2018-10-28'],
  [2019, '2019-03-31', '2019-10-27'],
  [2020, '2020-03-29', '2020-10-25'],
  [2021, '2021-03-28', '2021-10-31'],
  [2022, '2022-03-27', '2022-10-30'],
  [2023, '2023-03-26', '2023-10-29'],
  [2024, '2024-03-31', '2024-10-27'],
  [2025, '2025-03-30', '2025-10-26'],
  [2026, '2026-03-29', '2026-10-25'],
  [2027, '2027-03-28', '2027-10-31'],
  [2028, '2028-03-26', '2028-10-29'],
  [2029, '2029-03-25', '2029-10-28'],
  [2030, '2030-03-31', '2030-10-27'],
];

// date-fns-tz converts through the host's own zone and goes wrong for an hour around the host's
// clock changes (marnusw/date-fns-tz#258: with TZ=Europe/Berlin it formats 01:00Z on our spring
// day as 02:00+01:00). Pin the host zone while it serves as the reference; src/time never reads it,
// which the 'host zone' test below checks.
const hostZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (hostZone === undefined) delete process.env.TZ;
  else process.env.TZ = hostZone;
});

// Test-side calendar arithmetic, independent of src/time.
function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
const at = (date: string, hhmm: string): Date => new Date(`${date}T${hhmm}:00Z`);

describe('clockChanges', () => {
  it.each(CLOCK_CHANGES)('%i: spring %s, fall %s', (year, springForward, fallBack) => {
    expect(clockChanges(year)).toEqual({ springForward, fallBack });
  });
});

describe.each(CLOCK_CHANGES)('clock changes of %i', (_year, spring, fall) => {
  it('spring-forward day has 46 slots, the days either side 48', () => {
    expect(slotsInLocalDay(spring)).toBe(46);
    expect(slotsInLocalDay(shiftDate(spring, -1))).toBe(48);
    expect(slotsInLocalDay(shiftDate(spring, 1))).toBe(48);
  });

  it('fall-back day has 50 slots, the days either side 48', () => {
    expect(slotsInLocalDay(fall)).toBe(50);
    expect(slotsInLocalDay(shiftDate(fall, -1))).toBe(48);
    expect(slotsInLocalDay(shiftDate(fall, 1))).toBe(48);
  });

  it('day bounds around spring-forward: GMT midnight, then BST midnight', () => {
    expect(localDayBounds(shiftDate(spring, -1))).toEqual({
      start: at(shiftDate(spring, -1), '00:00'),
      end: at(spring, '00:00'),
    });
    expect(localDayBounds(spring)).toEqual({ start: at(spring, '00:00'), end: at(spring, '23:00') });
    expect(localDayBounds(shiftDate(spring, 1))).toEqual({
      start: at(spring, '23:00'),
      end: at(shiftDate(spring, 1), '23:00'),
    });
  });

  it('day bounds around fall-back: BST midnight, then GMT midnight', () => {
    expect(localDayBounds(shiftDate(fall, -1))).toEqual({
      start: at(shiftDate(fall, -2), '23:00'),
      end: at(shiftDate(fall, -1), '23:00'),
    });
    expect(localDayBounds(fall)).toEqual({ start: at(shiftDate(fall, -1), '23:00'), end: at(shiftDate(fall, 1), '00:00') });
    expect(localDayBounds(shiftDate(fall, 1))).toEqual({
      start: at(shiftDate(fall, 1), '00:00'),
      end: at(shiftDate(fall, 2), '00:00'),
    });
  });

  it('settlement periods skip nothing across spring-forward (01:00 GMT is 02:00 BST)', () => {
    const cases: Array<[Date, string, number, string]> = [
      [at(shiftDate(spring, -1), '23:30'), shiftDate(spring, -1), 48, `${shiftDate(spring, -1)}T23:30:00+00:00`],
      [at(spring, '00:00'), spring, 1, `${spring}T00:00:00+00:00`],
      [at(spring, '00:30'), spring, 2, `${spring}T00:30:00+00:00`],
      [at(spring, '01:00'), spring, 3, `${spring}T02:00:00+01:00`],
      [at(spring, '01:30'), spring, 4, `${spring}T02:30:00+01:00`],
      [at(spring, '22:30'), spring, 46, `${spring}T23:30:00+01:00`],
      [at(spring, '23:00'), shiftDate(spring, 1), 1, `${shiftDate(spring, 1)}T00:00:00+01:00`],
    ];
    for (const [instant, localDate, period, local] of cases) {
      expect(settlementPeriod(instant)).toEqual({ localDate, period });
      expect(formatLocal(instant)).toBe(local);
    }
  });

  it('settlement periods count the repeated hour twice across fall-back (3,4 BST then 5,6 GMT)', () => {
    const eve = shiftDate(fall, -1);
    const cases: Array<[Date, string, number, string]> = [
      [at(eve, '22:30'), eve, 48, `${eve}T23:30:00+01:00`],
      [at(eve, '23:00'), fall, 1, `${fall}T00:00:00+01:00`],
      [at(eve, '23:30'), fall, 2, `${fall}T00:30:00+01:00`],
      [at(fall, '00:00'), fall, 3, `${fall}T01:00:00+01:00`],
      [at(fall, '00:30'), fall, 4, `${fall}T01:30:00+01:00`],
      [at(fall, '01:00'), fall, 5, `${fall}T01:00:00+00:00`],
      [at(fall, '01:30'), fall, 6, `${fall}T01:30:00+00:00`],
      [at(fall, '02:00'), fall, 7, `${fall}T02:00:00+00:00`],
      [at(fall, '23:30'), fall, 50, `${fall}T23:30:00+00:00`],
      [at(shiftDate(fall, 1), '00:00'), shiftDate(fall, 1), 1, `${shiftDate(fall, 1)}T00:00:00+00:00`],
    ];
    for (const [instant, localDate, period, local] of cases) {
      expect(settlementPeriod(instant)).toEqual({ localDate, period });
      expect(formatLocal(instant)).toBe(local);
    }
  });

  it('localDayBounds and localDateOf round-trip on the days around both changes', () => {
    for (const day of [-1, 0, 1].flatMap((n) => [shiftDate(spring, n), shiftDate(fall, n)])) {
      const { start, end } = localDayBounds(day);
      expect(localDateOf(start)).toBe(day);
      expect(localDateOf(new Date(end.getTime() - 1))).toBe(day);
      expect(localDateOf(end)).toBe(shiftDate(day, 1));
      expect(localDayBounds(localDateOf(start)).start).toEqual(start);
      expect(formatLocal(start).slice(10, 19)).toBe('T00:00:00');
      expect(settlementPeriod(start)).toEqual({ localDate: day, period: 1 });
      expect(settlementPeriod(new Date(end.getTime() - HALF_HOUR))).toEqual({
        localDate: day,
        period: slotsInLocalDay(day),
      });
    }
  });

  it('agrees with date-fns-tz on every half-hour of both transition weeks', () => {
    for (const change of [spring, fall]) {
      const from = Date.parse(`${shiftDate(change, -3)}T00:00:00Z`);
      const to = Date.parse(`${shiftDate(change, 4)}T00:00:00Z`);
      const periods = new Map<string, number[]>();
      for (let ms = from; ms < to; ms += HALF_HOUR) {
        const instant = new Date(ms);
        // formatInTimeZone, not getTimezoneOffset: the latter answers wrongly at fall-back instants
        // when the machine's own zone is not UTC (seen with TZ=America/New_York).
        expect(utcOffsetMinutes(instant), formatUtc(instant)).toBe(
          formatInTimeZone(instant, TZ, 'xxx') === '+01:00' ? 60 : 0,
        );
        expect(localDateOf(instant)).toBe(formatInTimeZone(instant, TZ, 'yyyy-MM-dd'));
        expect(formatLocal(instant)).toBe(formatInTimeZone(instant, TZ, "yyyy-MM-dd'T'HH:mm:ssxxx"));
        const [hh = '', mm = ''] = formatInTimeZone(instant, TZ, 'HH:mm').split(':');
        expect(localMinutesOfDay(instant)).toBe(Number(hh) * 60 + Number(mm));
        expect(formatUtc(instant)).toBe(instant.toISOString().replace('.000Z', 'Z'));
        const { localDate, period } = settlementPeriod(instant);
        periods.set(localDate, [...(periods.get(localDate) ?? []), period]);
        // Every instant can be written with its offset and read back as the same instant.
        expect(parseUserDateTime(formatLocal(instant), '--from')).toEqual(instant);
      }
      // Whole local days inside the window are numbered 1..N without gaps.
      for (const [localDate, list] of periods) {
        const first = Date.parse(`${localDate}T00:00:00Z`);
        if (first - 3_600_000 < from || first + 86_400_000 >= to) continue; // partial days at the edges
        expect(list).toEqual(Array.from({ length: slotsInLocalDay(localDate) }, (_, i) => i + 1));
      }
    }
  });
});

describe('host zone', () => {
  it('does not change any result (src/time never reads the machine zone)', () => {
    const sample = (): string[] =>
      CLOCK_CHANGES.flatMap(([, spring, fall]) =>
        [spring, fall].flatMap((day) => {
          const { start, end } = localDayBounds(day);
          const slots: string[] = [];
          for (let ms = start.getTime() - 2 * HALF_HOUR; ms < end.getTime() + 2 * HALF_HOUR; ms += HALF_HOUR) {
            const instant = new Date(ms);
            const { localDate, period } = settlementPeriod(instant);
            slots.push(`${formatLocal(instant)} ${localDate}#${period} ${localMinutesOfDay(instant)}`);
          }
          const parsed = [day, `${day}T00:30`, `${day} 02:30`, `${day}T12:00`].map((input) =>
            parseUserDateTime(input, '--from').toISOString(),
          );
          return [...slots, ...parsed];
        }),
      );
    const inUtc = sample();
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Europe/London', 'Australia/Lord_Howe']) {
      process.env.TZ = zone;
      try {
        expect(new Date('2024-07-01T12:00:00Z').getTimezoneOffset()).not.toBe(0); // the switch took effect
        expect(sample()).toEqual(inUtc);
      } finally {
        process.env.TZ = 'UTC';
      }
    }
  });
});

describe('settlementPeriod rejects instants off the half-hour grid', () => {
  it.each(['2024-01-10T10:15:00Z', '2024-01-10T10:00:01Z', '2024-10-27T01:29:59.999Z'])('%s', (iso) => {
    expect(() => settlementPeriod(new Date(iso))).toThrow(InvalidTimeError);
    expect(() => settlementPeriod(new Date(iso))).toThrow(/does not start a half-hour slot/);
  });

  it('rejects an Invalid Date everywhere with InvalidTimeError', () => {
    const bad = new Date('nope');
    for (const fn of [localDateOf, utcOffsetMinutes, formatLocal, formatUtc, settlementPeriod]) {
      expect(() => fn(bad)).toThrow(InvalidTimeError);
    }
  });
});

describe('formatUtc and formatLocal', () => {
  it('drops milliseconds and always writes an offset locally', () => {
    expect(formatUtc(new Date('2024-03-31T01:00:00.999Z'))).toBe('2024-03-31T01:00:00Z');
    expect(formatLocal(new Date('2024-03-31T01:00:00Z'))).toBe('2024-03-31T02:00:00+01:00');
    expect(formatLocal(new Date('2024-10-27T01:30:00Z'))).toBe('2024-10-27T01:30:00+00:00');
    expect(formatLocal(new Date('2024-12-31T23:59:59.500Z'))).toBe('2024-12-31T23:59:59+00:00');
  });
});

describe('local date arithmetic', () => {
  it('adds calendar days across months, leap days and years', () => {
    expect(addLocalDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addLocalDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addLocalDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addLocalDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addLocalDays('2024-10-27', 0)).toBe('2024-10-27');
    expect(addLocalDays('2000-01-01', 366)).toBe('2001-01-01');
  });

  it('lists dates half-open and rejects malformed dates', () => {
    expect(localDatesBetween('2024-03-30', '2024-04-02')).toEqual(['2024-03-30', '2024-03-31', '2024-04-01']);
    expect(localDatesBetween('2024-03-30', '2024-03-30')).toEqual([]);
    expect(localDatesBetween('2024-04-02', '2024-03-30')).toEqual([]);
    expect(localDatesBetween('2023-12-30', '2024-01-02')).toEqual(['2023-12-30', '2023-12-31', '2024-01-01']);
    for (const bad of ['2024-02-30', '2024-3-1', '2024-03-31T00:00', '']) {
      expect(() => localDayBounds(bad)).toThrow(InvalidTimeError);
      expect(() => addLocalDays(bad, 1)).toThrow(InvalidTimeError);
    }
    expect(() => addLocalDays('2024-03-01', 0.5)).toThrow(InvalidTimeError);
  });

  it('each year has exactly one 46-slot and one 50-slot day, on the listed dates', () => {
    for (const [year, spring, fall] of CLOCK_CHANGES) {
      const days = localDatesBetween(`${year}-01-01`, `${year + 1}-01-01`);
      expect(days).toHaveLength(year % 4 === 0 ? 366 : 365);
      expect(days.filter((d) => slotsInLocalDay(d) === 46)).toEqual([spring]);
      expect(days.filter((d) => slotsInLocalDay(d) === 50)).toEqual([fall]);
    }
  });
});

describe('parseUserDateTime', () => {
  const utc = (iso: string): Date => new Date(iso);
  it.each([
    ['2024-03-31T15:00:00Z', '2024-03-31T15:00:00.000Z', 'Z'],
    ['2024-03-31t15:00z', '2024-03-31T15:00:00.000Z', 'lower-case t and z'],
    ['2024-07-01T12:00:00+02:00', '2024-07-01T10:00:00.000Z', 'offset +HH:MM'],
    ['2024-07-01T12:00-0530', '2024-07-01T17:30:00.000Z', 'offset -HHMM'],
    ['2024-10-27T01:30:00+00:00', '2024-10-27T01:30:00.000Z', 'explicit GMT in the repeated hour'],
    ['2024-10-27T01:30:00+01:00', '2024-10-27T00:30:00.000Z', 'explicit BST in the repeated hour'],
    ['2024-01-15', '2024-01-15T00:00:00.000Z', 'plain date in winter: GMT midnight'],
    ['2024-07-15', '2024-07-14T23:00:00.000Z', 'plain date in summer: BST midnight'],
    ['2024-03-31', '2024-03-31T00:00:00.000Z', 'spring-forward day starts at GMT midnight'],
    ['2024-10-27', '2024-10-26T23:00:00.000Z', 'fall-back day starts at BST midnight'],
    ['2024-07-15T16:00', '2024-07-15T15:00:00.000Z', 'naive in BST'],
    ['2024-07-15 16:00:30', '2024-07-15T15:00:30.000Z', 'naive with a space and seconds'],
    ['2024-01-15T16:00', '2024-01-15T16:00:00.000Z', 'naive in GMT'],
    ['2024-01-15T16:00:00.250', '2024-01-15T16:00:00.250Z', 'naive with milliseconds'],
    ['2024-03-31T00:59', '2024-03-31T00:59:00.000Z', 'last GMT minute before the gap'],
    ['2024-03-31T02:00', '2024-03-31T01:00:00.000Z', 'first BST minute after the gap'],
    ['2024-10-27T01:30', '2024-10-27T00:30:00.000Z', 'ambiguous: first occurrence (BST)'],
    ['2024-10-27T01:00', '2024-10-27T00:00:00.000Z', 'ambiguous: first occurrence (BST)'],
    ['2024-10-27T00:59', '2024-10-26T23:59:00.000Z', 'just before the repeated hour'],
    ['2024-10-27T02:00', '2024-10-27T02:00:00.000Z', 'just after the repeated hour'],
    ['  2024-02-29  ', '2024-02-29T00:00:00.000Z', 'leap day, surrounding spaces'],
  ])('%s → %s (%s)', (input, expected) => {
    expect(parseUserDateTime(input, '--from')).toEqual(utc(expected));
  });

  it('agrees with date-fns-tz fromZonedTime for naive times away from the changes', () => {
    for (const input of ['2019-06-01T12:34', '2021-12-25T00:00', '2027-08-31T23:30:15', '2030-01-01T00:00']) {
      expect(parseUserDateTime(input, '--from')).toEqual(fromZonedTime(input, TZ));
    }
  });

  it.each(['2024-03-31T01:00', '2024-03-31T01:30', '2024-03-31 01:59:59', '2020-03-29T01:15'])(
    'rejects %s, inside the spring-forward gap, naming the flag and why',
    (input) => {
      expect(() => parseUserDateTime(input, '--to')).toThrow(UsageError);
      expect(() => parseUserDateTime(input, '--to')).toThrow(/^--to: .* does not exist in Europe\/London: .*clocks go forward/);
    },
  );

  it('explains the accepted forms for garbage, naming the flag', () => {
    expect(() => parseUserDateTime('yesterdayish', '--from')).toThrow(
      new UsageError(
        "--from: 'yesterdayish' is not a date (use 2024-03-31, 2024-03-31T16:00 (Europe/London) or 2024-03-31T15:00:00Z)",
      ),
    );
  });

  it.each([
    '',
    '2024-02-30',
    '2023-02-29',
    '2024-13-01',
    '2024-00-10',
    '2024-02-30T12:00',
    '2024-03-31T24:00',
    '2024-03-31T16:60',
    '2024-03-31T16:00:60',
    '2024-03-31T16',
    '2024-3-31',
    '31/03/2024',
    '2024-03-31T16:00+25:00',
    '2024-03-31T16:00:00ZZ',
    '1711897200',
  ])('rejects %j with a UsageError naming the flag', (input) => {
    expect(() => parseUserDateTime(input, '--from')).toThrow(UsageError);
    expect(() => parseUserDateTime(input, '--from')).toThrow(/^--from: '.*' is not a date .*\(use 2024-03-31, /);
  });
});

describe('parseUserDate', () => {
  it('accepts calendar dates and rejects the rest naming the flag', () => {
    expect(parseUserDate('2024-02-29', '--date')).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-03-31T00:00', 'today']) {
      expect(() => parseUserDate(bad, '--date')).toThrow(UsageError);
      expect(() => parseUserDate(bad, '--date')).toThrow(/^--date: /);
    }
  });
});

describe('parseLocalTimeBand', () => {
  it.each([
    ['23:00-07:00', 1380, 420, true],
    ['07:00-16:00', 420, 960, false],
    ['00:30 - 04:30', 30, 270, false],
    ['16:00-24:00', 960, 1440, false],
    ['00:00-24:00', 0, 1440, false],
    ['7:00-9:30', 420, 570, false],
  ])('%s', (input, startMinutes, endMinutes, crossesMidnight) => {
    expect(parseLocalTimeBand(input)).toEqual({ startMinutes, endMinutes, crossesMidnight });
  });

  it.each(['', '23:00', '23:00-', '25:00-07:00', '23:00-24:30', '23:60-07:00', '23:15-07:00', '07:00-07:00', 'night'])(
    'rejects %j with a UsageError naming the flag',
    (input) => {
      expect(() => parseLocalTimeBand(input, '--between')).toThrow(UsageError);
      expect(() => parseLocalTimeBand(input, '--between')).toThrow(/^--between: '.*' is not a time band: /);
    },
  );

  it('matches wall-clock minutes, inclusive start and exclusive end, across midnight', () => {
    const night = parseLocalTimeBand('23:00-07:00');
    expect([1380, 1410, 0, 390].map((m) => isInLocalTimeBand(night, m))).toEqual([true, true, true, true]);
    expect([420, 720, 1350].map((m) => isInLocalTimeBand(night, m))).toEqual([false, false, false]);
    const day = parseLocalTimeBand('07:00-16:00');
    expect([420, 930].map((m) => isInLocalTimeBand(day, m))).toEqual([true, true]);
    expect([390, 960].map((m) => isInLocalTimeBand(day, m))).toEqual([false, false]);
    // Both 01:30s of a fall-back day read 01:30 on the wall.
    const early = parseLocalTimeBand('01:00-02:00');
    const repeated = ['2024-10-27T00:30:00Z', '2024-10-27T01:30:00Z'].map((iso) => localMinutesOfDay(new Date(iso)));
    expect(repeated).toEqual([90, 90]);
    expect(repeated.map((m) => isInLocalTimeBand(early, m))).toEqual([true, true]);
  });
});

describe('real Agile prices across clock changes', () => {
  it('2020-10-25 (region A, tom66): local clock column, 50 periods, negative repeated hour', () => {
    // No header: UTC slot start, UK local clock HH:MM, region, region name, price inc VAT.
    const rows = readFileSync(`${REAL}/tom66-OctopusGoCheaper/csv_agile_A_Eastern_England.csv`, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [utcStart = '', clock = '', , , price = ''] = line.split(',');
        return { start: new Date(utcStart), clock, price: Number(price) };
      })
      // Local days 2020-10-24 (BST) … 2020-10-26 (GMT): 2020-10-23T23:00Z up to 2020-10-27T00:00Z.
      .filter((r) => r.start >= new Date('2020-10-23T23:00:00Z') && r.start < new Date('2020-10-27T00:00:00Z'));
    expect(rows).toHaveLength(48 + 50 + 48);

    for (const row of rows) {
      expect(formatLocal(row.start).slice(11, 16)).toBe(row.clock);
      expect(formatLocal(row.start).slice(0, 10)).toBe(localDateOf(row.start));
    }
    const byDay = (date: string) => rows.filter((r) => localDateOf(r.start) === date);
    expect(byDay('2020-10-24')).toHaveLength(48);
    expect(byDay('2020-10-26')).toHaveLength(48);

    const day = byDay('2020-10-25').map((r) => ({ ...r, ...settlementPeriod(r.start) }));
    expect(day).toHaveLength(50);
    expect(day.map((r) => r.period)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(day.every((r) => r.localDate === '2020-10-25')).toBe(true);

    // The file's own clock column repeats 01:00 and 01:30; those four slots must be periods 3–6.
    const clockCounts = new Map<string, number>();
    for (const r of day) clockCounts.set(r.clock, (clockCounts.get(r.clock) ?? 0) + 1);
    const repeatedClocks = new Set([...clockCounts].filter(([, n]) => n > 1).map(([clock]) => clock));
    expect([...repeatedClocks]).toEqual(['01:00', '01:30']);
    const repeatedHour = day.filter((r) => repeatedClocks.has(r.clock));
    expect(repeatedHour.map((r) => r.period)).toEqual([3, 4, 5, 6]);
    expect(repeatedHour.map((r) => r.price)).toEqual([-8.6415, -6.615, -1.239, -4.1475]);
    // Negative prices run from 00:30 BST to 05:00 GMT; the repeated hour is inside that run.
    expect(day.filter((r) => r.price < 0).map((r) => r.period)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('2024-03-31 (region J, wyvernp): 46 rows numbered 1..46', () => {
    // Header timestamp,price; timestamp like `2024-03-31 00:00:00+00:00` (UTC).
    const rows = readFileSync(`${REAL}/wyvernp-agile_predictor/csv_agile_J_South_Eastern_England.csv`, 'utf8')
      .split('\n')
      .slice(1)
      .filter((line) => line.startsWith('2024-03-'))
      .map((line) => {
        const [timestamp = '', price = ''] = line.split(',');
        return { start: new Date(timestamp.replace(' ', 'T')), price: Number(price) };
      });
    const day = rows.filter((r) => localDateOf(r.start) === '2024-03-31');
    expect(day).toHaveLength(46);
    expect(day[0]?.start).toEqual(new Date('2024-03-31T00:00:00Z'));
    expect(day.at(-1)?.start).toEqual(new Date('2024-03-31T22:30:00Z'));
    expect(day.map((r) => settlementPeriod(r.start).period)).toEqual(Array.from({ length: 46 }, (_, i) => i + 1));
    expect(rows.filter((r) => localDateOf(r.start) === '2024-03-30')).toHaveLength(48);
    // Local 02:00 BST is the third slot: the clock jumps from 00:30 straight to 02:00.
    expect(day.slice(1, 3).map((r) => formatLocal(r.start))).toEqual([
      '2024-03-31T00:30:00+00:00',
      '2024-03-31T02:00:00+01:00',
    ]);
  });
});
