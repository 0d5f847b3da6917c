// The tariffs the config tracks, as far as the warehouse alone can tell (no API call): the
// config's tariff codes, the stored tariffs of its products in its regions, and — since an
// account's agreements are only known by asking the API — every tariff the ingest has a cursor
// for when accounts are configured. With nothing configured, every tariff with stored rates.
import type { Config } from '../config/loadConfig.js';
import { fetchedTariffs } from '../store/cursors.js';
import { storedTariffRegions, tariffsWithRates } from '../store/readCatalog.js';
import type { Warehouse } from '../store/Warehouse.js';

export type TrackedSource = 'tariff' | 'product' | 'account' | 'stored';

export interface TrackedTariff {
  tariffCode: string;
  source: TrackedSource;
  /** The ingest has fetched it at least once (it has an ingest_cursors row). */
  fetched: boolean;
}

export type TrackedSelection = Pick<Config, 'tariffs' | 'products' | 'accounts'>;

export async function trackedTariffs(warehouse: Warehouse, selection: TrackedSelection): Promise<TrackedTariff[]> {
  const fetched = await fetchedTariffs(warehouse);
  const out = new Map<string, TrackedTariff>();
  const add = (tariffCode: string, source: TrackedSource) => {
    if (!out.has(tariffCode)) out.set(tariffCode, { tariffCode, source, fetched: fetched.has(tariffCode) });
  };
  for (const code of selection.tariffs) add(code, 'tariff');
  if (selection.products.length > 0) {
    const rows = await storedTariffRegions(warehouse);
    for (const product of selection.products) {
      for (const row of rows) {
        if (row.product_code === product.code && product.regions.includes(row.region as string)) add(row.tariff_code, 'product');
      }
    }
  }
  if (selection.accounts.length > 0) for (const code of [...fetched].sort()) add(code, 'account');
  if (selection.tariffs.length + selection.products.length + selection.accounts.length === 0) {
    for (const code of await tariffsWithRates(warehouse)) add(code, 'stored');
  }
  return [...out.values()];
}
