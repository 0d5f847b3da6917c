// Discovery for people starting out: the region letters with their names, a product's tariff codes
// region by region, and the current Agile product found from the products list by name and dates
// (never a hard-coded code: a new Agile version appears every year or two).
import type { OctopusClient } from './OctopusClient.js';
import type { Product, ProductDetail } from './schemas.js';

/** GSP groups (distribution regions) by the letter at the end of a tariff code. */
export const REGIONS: readonly { region: string; name: string }[] = [
  { region: 'A', name: 'Eastern England' },
  { region: 'B', name: 'East Midlands' },
  { region: 'C', name: 'London' },
  { region: 'D', name: 'Merseyside and Northern Wales' },
  { region: 'E', name: 'West Midlands' },
  { region: 'F', name: 'North Eastern England' },
  { region: 'G', name: 'North Western England' },
  { region: 'H', name: 'Southern England' },
  { region: 'J', name: 'South Eastern England' },
  { region: 'K', name: 'Southern Wales' },
  { region: 'L', name: 'South Western England' },
  { region: 'M', name: 'Yorkshire' },
  { region: 'N', name: 'Southern Scotland' },
  { region: 'P', name: 'Northern Scotland' },
];

export function regionName(letter: string): string | undefined {
  return REGIONS.find((r) => r.region === letter)?.name;
}

export interface ProductTariff {
  region: string;
  region_name: string;
  tariff_code: string;
  register: 'single' | 'dual';
  payment_method: string;
}

/** Every electricity tariff of a product's detail, region by region. */
export function productTariffs(detail: ProductDetail): ProductTariff[] {
  const out: ProductTariff[] = [];
  const tables: [unknown, 'single' | 'dual'][] = [
    [detail.single_register_electricity_tariffs, 'single'], [detail.dual_register_electricity_tariffs, 'dual'],
  ];
  for (const [table, register] of tables) {
    for (const [key, byPayment] of Object.entries((table ?? {}) as Record<string, Record<string, { code: string }>>)) {
      const region = key.replace(/^_/, '');
      for (const [paymentMethod, entry] of Object.entries(byPayment)) {
        out.push({ region, region_name: regionName(region) ?? '', tariff_code: entry.code, register, payment_method: paymentMethod });
      }
    }
  }
  return out.sort((a, b) => a.region.localeCompare(b.region) || a.register.localeCompare(b.register) || a.payment_method.localeCompare(b.payment_method));
}

/** The Agile import product on sale at `now`: named "Agile Octopus" (not Outgoing, not a business
 *  product), available at `now`; the one that became available last wins. */
export function currentAgile(products: readonly Product[], now: Date): Product | undefined {
  const t = now.getTime();
  return products
    .filter((p) => /\bagile\b/i.test(`${p.display_name} ${p.full_name}`) && !/outgoing|export/i.test(`${p.display_name} ${p.full_name}`))
    .filter((p) => p.direction === 'IMPORT' && p.is_business !== true)
    .filter((p) => Date.parse(p.available_from ?? '') <= t && (p.available_to == null || Date.parse(p.available_to) > t))
    .sort((a, b) => Date.parse(b.available_from ?? '') - Date.parse(a.available_from ?? ''))[0];
}

/** The whole products list (a few pages). */
export async function allProducts(client: OctopusClient, signal?: AbortSignal): Promise<Product[]> {
  const out: Product[] = [];
  for await (const page of client.products({}, { signal })) out.push(...page.records);
  return out;
}
