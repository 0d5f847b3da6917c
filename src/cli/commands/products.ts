// `tariffs products`: the products stored in the warehouse.
import type { Command } from 'commander';
import { withDb, withFormat, type CommonFlags } from '../common.js';
import { printQuery } from '../printQuery.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  withFormat(withDb(command));
  command.action(action(async (flags: CommonFlags) => printQuery(flags, `
    SELECT code, display_name, brand, direction, is_variable, is_green, is_tracker, is_prepay, is_business,
           available_from, available_to, last_seen_at
    FROM products ORDER BY code`, { answer: ['code'], key: ['display_name', 'available_from', 'available_to', 'direction'] })));
}
