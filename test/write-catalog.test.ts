// The catalog upserts, many rows to a statement: every row stored, later rows applied over
// earlier ones (a tariff met twice keeps both rate kinds), first_seen_at kept on a re-run.
import { afterAll, describe, expect, it } from 'vitest';
import type { Product } from '../src/api/schemas.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { upsertProducts, upsertTariffs } from '../src/store/writeCatalog.js';
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
