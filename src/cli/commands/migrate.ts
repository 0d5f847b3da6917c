// `tariffs migrate`: create or upgrade the warehouse schema; with --vacuum, rewrite the file compactly.
import type { Command } from 'commander';
import { vacuumWarehouse } from '../../store/vacuumWarehouse.js';
import { WriteSession } from '../../store/WriteSession.js';
import { busyTimeoutMsOf, configFrom, loggerFor, withBusyTimeout, withDb, type CommonFlags } from '../common.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  command.option('--vacuum', 'also rewrite the file compactly (gives back the space kills and rewrites left)');
  withBusyTimeout(withDb(command));
  command.addHelpText('after', `
--vacuum copies everything into a fresh file beside the job's working file (room for one more
copy is needed), checks it table by table, renames it over the working file and publishes it as
the database; CHECKPOINT and VACUUM do not shrink a DuckDB file. Readers are never locked out;
exit 75 when another tariffs job is writing for longer than --busy-timeout.`);
  command.action(action(async (flags: CommonFlags & { vacuum?: boolean; busyTimeout?: number }) => {
    const config = await configFrom(flags);
    const session = await WriteSession.open(config.db, { logger: await loggerFor(config, flags), busyTimeoutMs: busyTimeoutMsOf(flags), purpose: 'migrate' });
    try {
      if (flags.vacuum) {
        const { bytesBefore, bytesAfter } = await vacuumWarehouse(session.warehouse);
        await session.reopen(); // the copy's views and macros are made again
        await session.publish();
        process.stdout.write(`${config.db}: schema up to date; vacuumed ${megabytes(bytesBefore)} -> ${megabytes(bytesAfter)}\n`);
        return;
      }
      await session.publish();
    } finally {
      session.close();
    }
    process.stdout.write(`${config.db}: schema up to date\n`);
  }));
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}
