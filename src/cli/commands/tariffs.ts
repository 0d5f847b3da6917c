// `tariffs tariffs`: the tariffs stored in the warehouse, with their rate coverage.
import type { Command } from 'commander';
import { withDb, withFormat, type CommonFlags } from '../common.js';
import { printQuery } from '../printQuery.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  withFormat(withDb(command));
  command.action(action(async (flags: CommonFlags) => printQuery(flags, `
    SELECT t.tariff_code, t.product_code, t.fuel, t.register, t.region,
           count(u.valid_from) AS unit_rates, min(u.valid_from) AS first_valid_from, max(u.valid_from) AS last_valid_from
    FROM tariffs AS t LEFT JOIN unit_rates AS u USING (tariff_code)
    GROUP BY ALL ORDER BY t.tariff_code`, { answer: ['tariff_code', 'unit_rates'], key: ['first_valid_from', 'last_valid_from', 'region'] })));
}
