// Refreshes the products list (every page) into the products table, and records in
// product_changes what appeared in the list and what left it since the previous refresh.
import type { OctopusClient } from '../api/OctopusClient.js';
import type { Product } from '../api/schemas.js';
import type { Warehouse } from '../store/Warehouse.js';
import { lastListedProducts } from '../store/readCatalog.js';
import { upsertProducts } from '../store/writeCatalog.js';
import { writeProductChanges } from '../store/writeProductChanges.js';

export async function refreshProducts(
  client: OctopusClient, warehouse: Warehouse, now: Date, signal?: AbortSignal,
): Promise<{ products: number; pages: number; added: number; withdrawn: number }> {
  const products: Product[] = [];
  let pages = 0;
  for await (const page of client.products({}, { signal })) {
    products.push(...page.records);
    pages++;
  }
  // every page came back: only now may an absence mean a product left the list
  const changes = await recordChanges(warehouse, products.map((p) => p.code), now);
  await upsertProducts(warehouse, products, now);
  return { products: products.length, pages, ...changes };
}

/** The list as the previous refresh saw it (the products it stamped last_seen_at), against this one. */
async function recordChanges(warehouse: Warehouse, listed: string[], now: Date): Promise<{ added: number; withdrawn: number }> {
  const previous = await lastListedProducts(warehouse);
  if (previous.size === 0) return { added: 0, withdrawn: 0 }; // the first refresh: a baseline, not news
  const current = new Set(listed);
  const rows = [
    ...[...current].filter((c) => !previous.has(c)).map((code) => ({ code, change: 'added' })),
    ...[...previous].filter((c) => !current.has(c)).map((code) => ({ code, change: 'withdrawn' })),
  ];
  if (rows.length > 0) {
    await writeProductChanges(warehouse, rows, now);
  }
  return { added: rows.filter((r) => r.change === 'added').length, withdrawn: rows.filter((r) => r.change === 'withdrawn').length };
}
