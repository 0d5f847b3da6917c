// DuckDB spills to <db>.tmp/ and removes it when it closes, but a killed process leaves it behind.
import { existsSync, rmSync, statSync } from 'node:fs';
import type { Logger } from 'pino';

/** Removes `<path>.tmp/`; call holding the write lock, when no other process has the file open. */
export function removeStaleSpill(path: string, shown: string, logger: Logger): void {
  const spill = `${path}.tmp`;
  try {
    if (!existsSync(spill) || !statSync(spill).isDirectory()) return;
    rmSync(spill, { recursive: true, force: true });
    logger.info({ db: shown, spill: `${shown}.tmp` }, 'removed the spill folder a killed process left behind');
  } catch (error) {
    logger.warn({ db: shown, err: (error as Error).message }, `could not remove the stale spill folder ${shown}.tmp`);
  }
}
