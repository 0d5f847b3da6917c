// `node dist/src/cli/buildCommandIndex.js`, run by `npm run build` and `prepare` after tsc: writes
// dist/command-index.json (commandIndex.ts) from every command module's own registrations.
// Written under a temporary name and renamed into place. It also marks the bin (the package's
// `bin`, dist/src/cli/main.js, which tsc writes without it) executable: npm sets that bit only when
// it links a bin, and `npx tariffs` in a clone at a path npx has seen before finds its old link
// and does not link again (measured: `sh: 1: tariffs: Permission denied` after `npm ci` in a fresh
// clone at a reused path).
import { chmodSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { commandIndexPath, indexCommands, type IndexedCommand } from './commandIndex.js';
import { commandModules } from './commands/index.js';

/** Every command as the modules register it now, in help order: what the index must hold. */
export async function registeredCommands(): Promise<IndexedCommand[]> {
  const entries: IndexedCommand[] = [];
  for (const module of commandModules) {
    const program = new Command();
    (await module.load()).register(program);
    entries.push(...indexCommands(program, module.file));
  }
  return entries;
}

export async function buildCommandIndex(target = commandIndexPath()): Promise<IndexedCommand[]> {
  const entries = await registeredCommands();
  const building = `${target}.${process.pid}.tmp`;
  writeFileSync(building, `${JSON.stringify(entries, null, 2)}\n`);
  renameSync(building, target);
  return entries;
}

/** The CLI's entry point (this folder's main.js) executable by whoever may read it. */
export function markBinExecutable(bin = fileURLToPath(new URL('./main.js', import.meta.url))): void {
  const mode = statSync(bin).mode & 0o777;
  chmodSync(bin, mode | ((mode & 0o444) >> 2));
}

if (process.argv[1]?.endsWith('buildCommandIndex.js')) {
  await buildCommandIndex();
  markBinExecutable();
}
