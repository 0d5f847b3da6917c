// The products stored in the warehouse, and what each products refresh saw change: the listings
// of `tariffs products` (without and with --changes).

/** Every stored product, by code. */
export const STORED_PRODUCTS_SQL = `
      SELECT code, display_name, brand, direction, is_variable, is_green, is_tracker, is_prepay, is_business,
             available_from, available_to, last_seen_at
      FROM products ORDER BY code`;

/** The products that appeared in the supplier's list or left it, seen at or after `since` when given. */
export function productChangesSql(since: Date | undefined): string {
  // an instant: its ISO form is a safe literal
  const where = since ? `WHERE c.seen_at >= TIMESTAMPTZ '${since.toISOString()}'` : '';
  return `
        SELECT c.product_code, c.change, c.seen_at, p.display_name
        FROM product_changes AS c LEFT JOIN products AS p ON p.code = c.product_code
        ${where}
        ORDER BY c.seen_at, c.change, c.product_code`;
}
