// `tariffs tariffs`: the tariffs stored in the warehouse, with their rate coverage.
import type { Command } from 'commander';
import { STORED_TARIFFS_SQL } from '../../analytics/storedTariffs.js';
import { withDb, withFormat, type CommonFlags } from '../common.js';
import { printQuery } from '../printQuery.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  withFormat(withDb(command));
  command.action(action(async (flags: CommonFlags) => printQuery(flags, STORED_TARIFFS_SQL, { answer: ['tariff_code', 'unit_rates'], key: ['first_valid_from', 'last_valid_from', 'region'] })));
}
