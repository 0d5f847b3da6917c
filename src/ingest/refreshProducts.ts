// Refreshes the products list (every page) into the products table.
import type { OctopusClient } from '../api/OctopusClient.js';
import type { Product } from '../api/schemas.js';
import type { Warehouse } from '../store/Warehouse.js';
import { upsertProducts } from '../store/writeCatalog.js';

export async function refreshProducts(
  client: OctopusClient, warehouse: Warehouse, now: Date, signal?: AbortSignal,
): Promise<{ products: number; pages: number }> {
  const products: Product[] = [];
  let pages = 0;
  for await (const page of client.products({}, { signal })) {
    products.push(...page.records);
    pages++;
  }
  await upsertProducts(warehouse, products, now);
  return { products: products.length, pages };
}
