// `tariffs products`: the products stored in the warehouse; with --changes, what each products
// refresh saw appear in the supplier's list or leave it (product_changes).
import type { Command } from 'commander';
import { productChangesSql, STORED_PRODUCTS_SQL } from '../../analytics/storedProducts.js';
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
      return printQuery(flags, productChangesSql(flags.since), { answer: ['product_code', 'change'], key: ['seen_at', 'display_name'] });
    }
    return printQuery(flags, STORED_PRODUCTS_SQL, { answer: ['code'], key: ['display_name', 'available_from', 'available_to', 'direction'] });
  }));
}
