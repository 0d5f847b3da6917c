// `node dist/src/cli/buildCommandIndex.js`, run by `npm run build` and `prepare` after tsc: writes
// dist/command-index.json (commandIndex.ts) from every command module's own registrations.
// Written under a temporary name and renamed into place.
import { renameSync, writeFileSync } from 'node:fs';
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

if (process.argv[1]?.endsWith('buildCommandIndex.js')) await buildCommandIndex();
