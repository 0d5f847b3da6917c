// pino JSON on stderr (pretty when stderr is a TTY); stdout is reserved for results.
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level?: string;
  /** Where log lines go; defaults to stderr. Tests pass a stream to capture them. */
  destination?: DestinationStream;
  pretty?: boolean;
}

/** Keys whose values are secrets; pino replaces them wherever they appear in a log object. */
export const REDACT_PATHS = [
  'apiKey', '*.apiKey', 'token', '*.token', 'authorization', '*.authorization',
  'headers.authorization', '*.headers.authorization', 'password', '*.password',
];

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const base = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (options.destination) return pino(base, options.destination);
  const pretty = options.pretty ?? process.stderr.isTTY === true;
  if (pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true } },
    });
  }
  return pino(base, pino.destination({ dest: 2, sync: true }));
}

/** A logger that discards everything (library use, tests that do not look at logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
