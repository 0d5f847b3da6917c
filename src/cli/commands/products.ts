// `tariffs products`: the products stored in the warehouse; with --changes, what each products
// refresh saw appear in the supplier's list or leave it (product_changes).
import type { Command } from 'commander';
import { parseUserDateTime } from '../../time/index.js';
import { withDb, withFormat, type CommonFlags } from '../common.js';
import { parsed, rule } from '../flagRules.js';
import { printQuery } from '../printQuery.js';
import { action } from '../run.js';

interface ProductsFlags extends CommonFlags {
  changes?: boolean;
  since?: Date;
}

export function configure(command: Command): void {
  command
    .option('--changes', "what each products refresh saw change: product_code, change ('added' or 'withdrawn'), seen_at")
    .option('--since <when>', 'with --changes: only those seen at or after this (ISO datetime, a date, or naive Europe/London time)',
      parsed('--since', parseUserDateTime));
  rule<ProductsFlags>(command, (f) => f.since !== undefined && !f.changes, '--since goes with --changes');
  withFormat(withDb(command));
  command.addHelpText('after', `
--changes lists the products that appeared in the supplier's list or left it, as each products
refresh (tariffs ingest, the products job) saw them; the first refresh of a warehouse is the
baseline and records none. A withdrawn product's URLs may still answer with historical rates:
tariffs status --check names the tracked tariffs of such products.`);
  command.action(action(async (flags: ProductsFlags) => {
    if (flags.changes) {
      // an instant from parseUserDateTime: its ISO form is a safe literal
      const since = flags.since ? `WHERE c.seen_at >= TIMESTAMPTZ '${flags.since.toISOString()}'` : '';
      return printQuery(flags, `
        SELECT c.product_code, c.change, c.seen_at, p.display_name
        FROM product_changes AS c LEFT JOIN products AS p ON p.code = c.product_code
        ${since}
        ORDER BY c.seen_at, c.change, c.product_code`, { answer: ['product_code', 'change'], key: ['seen_at', 'display_name'] });
    }
    return printQuery(flags, `
      SELECT code, display_name, brand, direction, is_variable, is_green, is_tracker, is_prepay, is_business,
             available_from, available_to, last_seen_at
      FROM products ORDER BY code`, { answer: ['code'], key: ['display_name', 'available_from', 'available_to', 'direction'] });
  }));
}
