// Every module of the CLI's commands, in the order `tariffs --help` lists them. Loaded only when
// needed: `tariffs <command>` loads the one module that registers it (commandIndex.ts says which),
// `--help` and `--version` load none.
import type { Command } from 'commander';

export type Register = (program: Command) => void;

export interface CommandModule {
  /** The module's file name in src/cli/commands (without extension): the command index's key. */
  readonly file: string;
  readonly load: () => Promise<{ register: Register }>;
}

export const commandModules: readonly CommandModule[] = [
  { file: 'ingest', load: () => import('./ingest.js') },
  { file: 'sql', load: () => import('./sql.js') },
  { file: 'analytics', load: () => import('./analytics.js') },
  { file: 'consumption', load: () => import('./consumption.js') },
  { file: 'cost', load: () => import('./cost.js') },
  { file: 'events', load: () => import('./events.js') },
  { file: 'sandbox', load: () => import('./sandbox.js') },
  { file: 'schedule', load: () => import('./schedule.js') },
  { file: 'run', load: () => import('./run.js') },
  { file: 'status', load: () => import('./status.js') },
  { file: 'export', load: () => import('./export.js') },
  { file: 'demo', load: () => import('./demo.js') },
];

/** Every command registered, as before start-up was lazy (the build's command index and tests). */
export async function registerAll(program: Command): Promise<Command> {
  for (const module of commandModules) (await module.load()).register(program);
  return program;
}
