// scanRatePage held to the general way it stands in for (the body decoded, JSON.parse, the
// envelope and every record checked by zod's rules, then columns): a page it reads is one the
// general way reads with the same values, bit for bit; a page it declines goes the general way,
// which reads it or names its field. Real pages come from the sandbox over HTTP (region J's real
// prices, clock changes and negative prices among them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { scanRatePage, type ScannedRatePage } from '../src/api/scanRatePage.js';
import { fastRecordSchema, pageEnvelopeSchema, unitRateSchema } from '../src/api/schemas.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { RateColumns } from '../src/rates/RateColumns.js';

const utf8 = new TextDecoder();
const bytesOf = (text: string) => new TextEncoder().encode(text);

/** The general way: a page, or why it is refused. */
function general(bytes: Uint8Array): ScannedRatePage | string {
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(bytes));
  } catch {
    return 'not JSON';
  }
  const envelope = pageEnvelopeSchema.safeParse(json);
  if (!envelope.success) return `envelope: ${envelope.error.issues[0]!.path.join('.')}`;
  const schema = fastRecordSchema(unitRateSchema);
  const records = [];
  for (const [i, record] of envelope.data.results.entries()) {
    const parsed = schema.safeParse(record);
    if (!parsed.success) return `record ${i}: ${parsed.error.issues[0]!.path.join('.')}`;
    records.push(parsed.data);
  }
  return { count: envelope.data.count, next: envelope.data.next, previous: envelope.data.previous, rates: RateColumns.of(records) };
}

const columnsOf = (rates: RateColumns) => [rates.validFrom, rates.validTo, rates.valueExcVat, rates.valueIncVat, rates.paymentMethod]
  .map((column) => Array.from(column as ArrayLike<unknown>));

/** Scanned pages equal the general way's, value for value (Object.is: -0 and NaN count). */
function expectSame(bytes: Uint8Array, label: string): 'scanned' | 'declined' {
  const scanned = scanRatePage(bytes);
  const expected = general(bytes);
  if (scanned === undefined) return 'declined';
  if (typeof expected === 'string') throw new Error(`${label}: scanned, but the general way refuses it (${expected})`);
  expect({ ...scanned, rates: undefined }, label).toEqual({ ...expected, rates: undefined });
  const [a, b] = [columnsOf(scanned.rates), columnsOf(expected.rates)];
  a.forEach((column, c) => column.forEach((value, i) => {
    if (!Object.is(value, b[c]![i])) throw new Error(`${label}: column ${c} row ${i}: ${String(value)} vs ${String(b[c]![i])}`);
  }));
  expect(a[0]!.length).toBe(b[0]!.length);
  return 'scanned';
}

const good = { value_exc_vat: 12.5, value_inc_vat: 13.125, valid_from: '2024-03-31T00:30:00Z', valid_to: '2024-03-31T01:00:00Z', payment_method: null };
const pageOf = (results: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ count: results.length, next: null, previous: null, results, ...extra });

describe('scanRatePage', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("reads the sandbox's real pages as the general way does: every page of region J's Agile prices, clock changes and negative prices included", async () => {
    let url: string | null = `${sandbox.baseUrl}products/AGILE-18-02-21/electricity-tariffs/E-1R-AGILE-18-02-21-J/standard-unit-rates/?period_from=2018-01-01T00:00:00Z&page_size=1500`;
    let pages = 0;
    let negative = 0;
    let rows = 0;
    while (url) {
      const response = await request(url);
      const bytes = new Uint8Array(await response.body.arrayBuffer());
      expect(expectSame(bytes, url)).toBe('scanned');
      const page = scanRatePage(bytes)!;
      negative += page.rates.valueIncVat.filter((v) => v < 0).length;
      rows += page.rates.length;
      pages++;
      url = page.next;
    }
    expect(pages).toBeGreaterThan(50);
    expect(rows).toBeGreaterThan(75_000);
    expect(negative).toBeGreaterThan(100);
  });

  it('reads the plain form with any key order, whitespace, payment methods and open ends; declines what it does not read, and never reads what the general way refuses', () => {
    const plain: [string, string][] = [
      ['one record', pageOf([good])],
      ['empty', pageOf([])],
      ['pretty-printed', JSON.stringify(JSON.parse(pageOf([good, { ...good, valid_to: null }])), null, 2)],
      ['CRLF and tabs', pageOf([good]).replace(/,/g, ',\r\n\t').replace(/":/g, '" : ')],
      ['keys in another order', JSON.stringify({ results: [{ valid_to: null, payment_method: 'DIRECT_DEBIT', valid_from: good.valid_from, value_inc_vat: 1, value_exc_vat: 2 }], previous: 'http://x/?page=1', next: 'http://x/?page=3', count: 1 })],
      ['payment methods', pageOf([{ ...good, payment_method: 'DIRECT_DEBIT' }, { ...good, payment_method: 'NON_DIRECT_DEBIT' }, { ...good, payment_method: 'DIRECT_DEBIT' }, good])],
      ['no payment method', pageOf([(({ payment_method: _pm, ...rest }) => rest)(good)])],
      ['negative, zero, minus zero', pageOf([{ ...good, value_exc_vat: -0, value_inc_vat: -3.25 }, { ...good, value_exc_vat: 0 }]).replace('"value_exc_vat":0', '"value_exc_vat":-0')],
      ['integers and long fractions', pageOf([{ ...good, value_exc_vat: 123456789012345, value_inc_vat: 0.123456789012345 }])],
      ['a count larger than the page', pageOf([good], { count: 3000, next: 'http://127.0.0.1/v1/x/?page=2' })],
      ['a count written 1.0', pageOf([good]).replace('"count":1', '"count":1.0')],
      ['the last second of a leap day', pageOf([{ ...good, valid_from: '2024-02-29T23:59:59Z', valid_to: '2024-03-01T00:00:00Z' }])],
    ];
    const declined: [string, string][] = [
      // read by the general way
      ['an extra record field', pageOf([{ ...good, extra: [1, 2] }])],
      ['an extra envelope field', pageOf([good], { links: {} })],
      ['an exponent', pageOf([good]).replace('12.5', '1.25e1')],
      ['16 significant digits', pageOf([{ ...good, value_exc_vat: 0.1234567890123456 }])],
      ['an offset', pageOf([{ ...good, valid_from: '2024-03-31T01:30:00+01:00' }])],
      ['fractional seconds', pageOf([{ ...good, valid_from: '2024-03-31T00:30:00.000Z' }])],
      ['an escape in a string', pageOf([{ ...good, payment_method: 'DIRECT_DEBIT' }]).replace('DIRECT_', 'DIRECT\\u005f')],
      ['a non-ASCII string', pageOf([{ ...good, payment_method: 'prépayé' }])],
      ['a byte-order mark', `\uFEFF${pageOf([good])}`],
      ['a repeated key', pageOf([good]).replace('"value_exc_vat":12.5', '"value_exc_vat":1,"value_exc_vat":12.5')],
      ['a year before 1000', pageOf([{ ...good, valid_from: '0999-03-31T00:30:00Z' }])],
      // refused by the general way
      ['a string price', pageOf([{ ...good, value_inc_vat: '13.1' }])],
      ['a null price', pageOf([{ ...good, value_exc_vat: null }])],
      ['no valid_from', pageOf([(({ valid_from: _vf, ...rest }) => rest)(good)])],
      ['no valid_to', pageOf([(({ valid_to: _vt, ...rest }) => rest)(good)])],
      ['30 February', pageOf([{ ...good, valid_from: '2024-02-30T00:00:00Z' }])],
      ['hour 24', pageOf([{ ...good, valid_to: '2024-03-31T24:00:00Z' }])],
      ['a numeric payment method', pageOf([{ ...good, payment_method: 3 }])],
      ['a record that is not an object', pageOf([good, 42])],
      ['results not an array', pageOf([]).replace('"results":[]', '"results":{}')],
      ['no previous', JSON.stringify({ count: 0, next: null, results: [] })],
      ['a negative count', pageOf([]).replace('"count":0', '"count":-1')],
      ['a fractional count', pageOf([]).replace('"count":0', '"count":0.5')],
      ['a leading zero', pageOf([good]).replace('12.5', '012.5')],
      ['a bare dot', pageOf([good]).replace('12.5', '12.')],
      ['truncated', pageOf([good, good]).slice(0, -20)],
      ['trailing bytes', `${pageOf([good])} x`],
      ['two pages', `${pageOf([good])}${pageOf([good])}`],
      ['a trailing comma', pageOf([good]).replace('null}]', 'null,}]')],
      ['nothing', ''],
    ];
    for (const [label, text] of plain) expect(expectSame(bytesOf(text), label), label).toBe('scanned');
    for (const [label, text] of declined) expect(expectSame(bytesOf(text), label), label).toBe('declined');
    // the general way still reads the first group of declined pages
    expect(declined.slice(0, 11).map(([, text]) => typeof general(bytesOf(text)))).toEqual(Array(11).fill('object'));
  });

  it('reads numbers as JSON.parse does, bit for bit: 200,000 random prices of up to 15 significant digits', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const texts: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const digits = 1 + Math.floor(random() * 15);
      let mantissa = '';
      for (let d = 0; d < digits; d++) mantissa += String(Math.floor(random() * 10));
      mantissa = mantissa.replace(/^0+(?=\d)/, '');
      const point = Math.floor(random() * (mantissa.length + 1));
      let text = point === 0 ? mantissa : `${mantissa.slice(0, mantissa.length - point) || '0'}.${mantissa.slice(mantissa.length - point)}`;
      if (random() < 0.3) text = `-${text}`;
      texts.push(text);
    }
    const records = texts.map((text) => `{"value_exc_vat":${text},"value_inc_vat":0.1,"valid_from":"2024-03-31T00:30:00Z","valid_to":null}`);
    const bytes = bytesOf(`{"count":${texts.length},"next":null,"previous":null,"results":[${records.join(',')}]}`);
    const page = scanRatePage(bytes);
    expect(page).toBeDefined();
    texts.forEach((text, i) => {
      if (!Object.is(page!.rates.valueExcVat[i], JSON.parse(text))) throw new Error(`${text}: ${page!.rates.valueExcVat[i]}`);
    });
  });
});
