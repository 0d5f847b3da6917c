// The catalog upserts, many rows to a statement: every row stored, later rows applied over
// earlier ones (a tariff met twice keeps both rate kinds), first_seen_at kept on a re-run.
import { afterAll, describe, expect, it } from 'vitest';
import type { Product } from '../src/api/schemas.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { upsertProducts, upsertTariffs } from '../src/store/writeCatalog.js';
import { valuesList } from '../src/store/valuesList.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-catalog-');
afterAll(() => tmp.remove());

const product = (i: number, name = `Product ${i}`): Product => ({
  code: `P-${String(i).padStart(3, '0')}`, direction: 'IMPORT', full_name: name, display_name: name, description: '',
  is_variable: i % 2 === 0, is_green: false, is_tracker: false, is_prepay: false, is_business: false, is_restricted: false,
  term: null, available_from: '2024-01-01T00:00:00Z', available_to: null, links: [], brand: 'OCTOPUS_ENERGY',
});

describe('catalog upserts', () => {
  it('stores 250 products over several statements and updates them on a re-run, keeping first_seen_at', async () => {
    const w = await Warehouse.open(tmp.file('catalog.duckdb'));
    try {
      await upsertProducts(w, Array.from({ length: 250 }, (_, i) => product(i)), new Date('2026-01-01T00:00:00Z'));
      await upsertProducts(w, [product(7, 'Renamed'), product(250)], new Date('2026-02-01T00:00:00Z'));
      const rows = await w.all(`SELECT count(*) AS n, count(*) FILTER (WHERE full_name = 'Renamed') AS renamed,
          count(*) FILTER (WHERE last_seen_at > first_seen_at) AS moved FROM products`);
      expect(rows).toEqual([{ n: 251, renamed: 1, moved: 1 }]);

      const tariff = (kinds: string[], region = 'A') => ({
        tariffCode: 'E-1R-X-A', productCode: 'X', fuel: 'electricity' as const, register: 'single' as const, region,
        paymentMethod: null, rateKinds: kinds,
      });
      await upsertTariffs(w, [tariff(['standard']), { ...tariff(['standing_charge']), tariffCode: 'E-1R-Y-A' }, tariff(['standing_charge'], 'B')],
        new Date('2026-01-01T00:00:00Z'));
      const tariffs = await w.all(`SELECT tariff_code, region, list_sort(rate_kinds) AS kinds FROM tariffs ORDER BY tariff_code`);
      expect(tariffs).toEqual([
        { tariff_code: 'E-1R-X-A', region: 'B', kinds: ['standard', 'standing_charge'] },
        { tariff_code: 'E-1R-Y-A', region: 'A', kinds: ['standing_charge'] },
      ]);
    } finally {
      w.close();
    }
  });
});

describe('valuesList', () => {
  it('puts each row\'s values into the cells that hold ?, in order, as named parameters; other cells as written', async () => {
    const list = valuesList([['a', 1, '2024-01-01T00:00:00Z'], ['b', null, null]], ['?', '?', 'CAST(? AS TIMESTAMPTZ)', '$run', 'now()']);
    expect(list.sql).toBe('($v0_0, $v0_1, CAST($v0_2 AS TIMESTAMPTZ), $run, now()),\n($v1_0, $v1_1, CAST($v1_2 AS TIMESTAMPTZ), $run, now())');
    expect(list.params).toEqual({ v0_0: 'a', v0_1: 1, v0_2: '2024-01-01T00:00:00Z', v1_0: 'b', v1_1: null, v1_2: null });
    expect(() => valuesList([['a']], ['?', '?'])).toThrow(/row 0 has 1 values for 2 cells/);
    const w = await Warehouse.open(tmp.file('values.duckdb'));
    try {
      const rows = await w.all(`SELECT * FROM (VALUES ${list.sql}) AS t(name, n, stamp, run, made) ORDER BY name`, { ...list.params, run: 7 });
      expect(rows.map((r) => [r.name, r.n, r.stamp, r.run])).toEqual([['a', 1, '2024-01-01T00:00:00Z', 7], ['b', null, null, 7]]);
    } finally {
      w.close();
    }
  });
});
