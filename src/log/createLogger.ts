// pino on stderr; stdout is reserved for results. Piped or under cron: JSON lines, `info` by
// default. On a terminal: one readable line per entry (pino-pretty, colour unless NO_COLOR or
// --no-color), warnings and errors only by default, so results are not drowned in logs.
import { pino, type Logger, type DestinationStream } from 'pino';
import type PinoPretty from 'pino-pretty';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** Explicit level (TARIFFS_LOG_LEVEL, -v); default `warn` on a terminal, else `info`. */
  level?: string;
  /** Where JSON log lines go; defaults to stderr. Tests pass a stream to capture them. */
  destination?: DestinationStream;
  /** Human-readable lines through pino-pretty, its module given (`await import('pino-pretty')`)
   *  only when they are wanted (the CLI: stderr a terminal), so that JSON runs never load it. */
  pretty?: typeof PinoPretty;
  /** Colour in pretty lines (default true). */
  color?: boolean;
  /** Where pretty lines go (default stderr); the CLI passes one that shares the terminal with the progress bar. */
  prettyDestination?: NodeJS.WritableStream;
}

/** Keys whose values are secrets; pino replaces them wherever they appear in a log object. */
export const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'token', '*.token', 'authorization', '*.authorization',
  'headers.authorization', '*.headers.authorization', 'password', '*.password',
];

export function createLogger(options: LoggerOptions = {}): Logger {
  const pretty = options.destination === undefined ? options.pretty : undefined;
  const level = options.level ?? (pretty ? 'warn' : 'info');
  const base = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (options.destination) return pino(base, options.destination);
  if (pretty) {
    return pino(base, pretty({
      colorize: options.color ?? true,
      singleLine: true,
      ignore: 'pid,hostname',
      translateTime: 'SYS:HH:MM:ss',
      destination: options.prettyDestination ?? 2,
      sync: true,
    }));
  }
  return pino(base, pino.destination({ dest: 2, sync: true }));
}

/** A logger that discards everything (library use, tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
