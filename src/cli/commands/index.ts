// Every command of the CLI, in the order `tariffs --help` lists them.
import type { Command } from 'commander';

export type Register = (program: Command) => void;

export const commands: Register[] = [];
