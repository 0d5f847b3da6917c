// Flag values and the rules between flags, for commands to declare beside their flags: parsers for
// commander's argParser, and rules commander's .conflicts() cannot say, checked before the action.
// Either way a bad flag is a usage error (exit 2) naming the flag, reported by program.ts.
import type { Command } from 'commander';
import { parseTariffCode } from '../api/tariffCodes.js';
import { UsageError } from '../errors.js';

/** Refuses to run `command` (a usage error saying `message`) when `broken(flags, args)` (its parsed
 *  flags and arguments); checked after commander's own checks, before the action. */
export function rule<F>(command: Command, broken: (flags: F, args: unknown[]) => boolean, message: string): Command {
  return command.hook('preAction', (self) => {
    if (broken(self.opts() as F, self.processedArgs)) throw new UsageError(message);
  });
}

/** An argParser from a parser that takes the flag's name for its messages. */
export function parsed<T>(flag: string, parse: (text: string, flag: string) => T): (text: string) => T {
  return (text) => parse(text, flag);
}

/** A whole number of at least 1. */
export const positiveCount = (flag: string) => (text: string): number => {
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`${flag}: '${text}' is not a positive whole number`);
  }
  return value;
};

/** A whole number from `min` to `max`. */
export const wholeNumber = (flag: string, min: number, max: number) => (text: string): number => {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${flag}: '${text}' is not a whole number from ${min} to ${max}`);
  return n;
};

/** A whole number of minutes (0 or more). */
export const wholeMinutes = (flag: string) => (text: string): number => {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag}: '${text}' is not a whole number of minutes`);
  return Number(text.trim());
};

/** A number of seconds, 0 or more (fractions allowed). */
export const seconds = (flag: string) => (text: string): number => {
  const value = Number(text);
  if (text.trim() === '' || !(Number.isFinite(value) && value >= 0)) throw new UsageError(`${flag}: '${text}' is not a number of seconds`);
  return value;
};

/** A price in p/kWh; negative works. */
export const price = (flag: string) => (text: string): number => {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${flag}: '${text}' is not a price in p/kWh (e.g. 15 or -2.5)`);
  return value;
};

/** `2,1,1` → [2, 1, 1]; each a number above 0. */
export const weightList = (flag: string) => (text: string): number[] => {
  const parts = text.split(',').map((p) => p.trim());
  const weights = parts.map(Number);
  if (parts.some((p) => p === '') || weights.some((w) => !Number.isFinite(w) || w <= 0)) {
    throw new UsageError(`${flag}: '${text}' is not a list of numbers above 0 such as 2,1,1`);
  }
  return weights;
};

/** One of `choices`, as given. */
export const oneOf = <T extends string>(flag: string, choices: readonly T[]) => (text: string): T => {
  if (!(choices as readonly string[]).includes(text)) throw new UsageError(`${flag}: '${text}' is not one of ${choices.join(', ')}`);
  return text as T;
};

/** A repeatable --tariff: each a tariff code (E-1R-AGILE-24-10-01-C), in the order given. */
export function tariffCodes(code: string, previous: string[] = []): string[] {
  parseTariffCode(code, '--tariff');
  return [...previous, code];
}
