// `tariffs regions`: a product's tariffs compared region by region in the warehouse; with --list,
// the region letters, a product's tariff codes and the Agile product on sale now, from the API.
import type { Command } from 'commander';
import { allProducts, currentAgile, productTariffs, REGIONS } from '../../api/discover.js';
import { OctopusClient } from '../../api/OctopusClient.js';
import { regionComparison } from '../../analytics/index.js';
import { regionComparisonStatement } from '../../analytics/regionComparison.js';
import { configFrom, formatOf, loggerFor, withApi, withDb, withFormat, type CommonFlags } from '../common.js';
import { rule } from '../flagRules.js';
import { writeRows } from '../output.js';
import { FORMS, output, rangeOf, withStoredRange, withWarehouse, type RangeFlags } from '../questions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

interface RegionsFlags extends RangeFlags, PrintSqlFlags {
  product?: string;
  list?: boolean;
}

export function configure(command: Command): void {
  withStoredRange(command
    .option('--product <code>', 'product code, e.g. AGILE-18-02-21 (required unless --list)')
    .option('--list', 'from the API, not the warehouse: the region letters and names, with --product its tariff codes per region, and the Agile product on sale now'));
  rule<RegionsFlags>(command, (f) => f.list === true && f.printSql === true, '--print-sql: not with --list (it asks the API, not the warehouse)');
  rule<RegionsFlags>(command, (f) => f.product === undefined && !f.list, '--product is required (or --list to discover products and regions)');
  withPrintSql(withFormat(withDb(withApi(command))));
  command.addHelpText('after', `
Regions stored over different periods are not comparable: give --from/--to to compare like with like.
--list asks the API (public endpoints, no credentials): e.g. \`tariffs regions --list\` names the
current Agile product; \`tariffs regions --list --product AGILE-24-10-01\` gives the tariff code of
each region, ready for \`tariffs ingest --tariff CODE\`.
SQL: SELECT * FROM region_comparison(product, from, to).
${FORMS}`);
  command.action(action(async (flags: RegionsFlags) => {
    if (flags.list) return listRegions(flags);
    const product = flags.product!;
    const range = rangeOf(flags);
    if (flags.printSql) return printSql(regionComparisonStatement({ product, ...range, rounded: true }));
    await withWarehouse(flags, async (warehouse, format) => {
      // the region, its tariff and the mean are the answer; min/max next
      output(await regionComparison(warehouse, { product, ...range, rounded: true }), format,
        { answer: ['region', 'tariff_code', 'mean_inc_vat', 'mean_rank'], key: ['min_inc_vat', 'max_inc_vat', 'days'] });
    });
  }));
}

/** `regions --list`: discovery from the API. */
async function listRegions(flags: CommonFlags & { product?: string }): Promise<void> {
  const config = await configFrom(flags);
  const format = formatOf(flags);
  const client = new OctopusClient({ baseUrl: config.baseUrl, logger: await loggerFor(config, flags) });
  try {
    if (flags.product !== undefined) {
      writeRows(productTariffs(await client.product(flags.product)), format);
      return;
    }
    const agile = currentAgile(await allProducts(client), new Date());
    if (format === 'json') {
      process.stdout.write(`${JSON.stringify({ regions: REGIONS, current_agile: agile ? { code: agile.code, full_name: agile.full_name, available_from: agile.available_from } : null }, null, 2)}\n`);
      return;
    }
    writeRows(REGIONS, format);
    if (format === 'table') {
      process.stdout.write(agile
        ? `\nAgile on sale now: ${agile.code} (${agile.full_name}, from ${agile.available_from.slice(0, 10)}); its tariffs: tariffs regions --list --product ${agile.code}\n`
        : '\nNo Agile product on sale now in the products list.\n');
    }
  } finally {
    await client.close();
  }
}
