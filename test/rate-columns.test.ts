// RateColumns: rates as number columns, parsed once, deduplicated only when something repeats.
import { describe, expect, it } from 'vitest';
import type { UnitRate } from '../src/api/schemas.js';
import { RateColumns } from '../src/rates/RateColumns.js';

const rate = (from: string, to: string | null, price: number, pm: string | null = null): UnitRate => ({
  valid_from: from, valid_to: to, value_exc_vat: price, value_inc_vat: price * 1.05, payment_method: pm,
});

describe('RateColumns', () => {
  it('parses boundaries shared by neighbouring rates correctly, newest first', () => {
    const cols = RateColumns.of([
      rate('2024-03-31T01:30:00Z', '2024-03-31T02:00:00Z', 3),
      rate('2024-03-31T01:00:00Z', '2024-03-31T01:30:00Z', 2),
      rate('2024-03-31T00:30:00+00:00', '2024-03-31T01:00:00Z', 1),
      rate('2020-11-01T00:00:00Z', null, 9),
    ]);
    expect(Array.from(cols.validFrom)).toEqual(['2024-03-31T01:30:00Z', '2024-03-31T01:00:00Z', '2024-03-31T00:30:00Z', '2020-11-01T00:00:00Z'].map(Date.parse));
    expect(Array.from(cols.validTo.slice(0, 3))).toEqual(['2024-03-31T02:00:00Z', '2024-03-31T01:30:00Z', '2024-03-31T01:00:00Z'].map(Date.parse));
    expect(Number.isNaN(cols.validTo[3])).toBe(true);
    expect(cols.endOfLatest(0)).toBe(Date.parse('2024-03-31T02:00:00Z'));
  });

  it('keeps the last of a repeated (valid_from, payment method), and both payment methods of one instant', () => {
    const cols = RateColumns.of([
      rate('2024-01-01T00:30:00Z', '2024-01-01T01:00:00Z', 1),
      rate('2024-01-01T00:00:00Z', '2024-01-01T00:30:00Z', 2),
      rate('2024-01-01T00:30:00Z', '2024-01-01T01:00:00Z', 3), // a page overlap repeats it
    ]).deduped();
    expect(Array.from(cols.valueExcVat)).toEqual([2, 3]);
    const pairs = RateColumns.of([
      rate('2024-01-01T00:00:00Z', null, 20, 'DIRECT_DEBIT'),
      rate('2024-01-01T00:00:00Z', null, 21, 'NON_DIRECT_DEBIT'),
    ]).deduped();
    expect(pairs.paymentMethod).toEqual(['DIRECT_DEBIT', 'NON_DIRECT_DEBIT']);
    const ordered = RateColumns.of([rate('2024-01-01T01:00:00Z', null, 1), rate('2024-01-01T00:00:00Z', null, 2)]);
    expect(ordered.deduped()).toBe(ordered); // nothing repeats: no copy
  });
});
