// What a DuckDB error is about, read from its message: the one place that reads DuckDB's words
// (its errors carry no codes), so callers branch on a kind rather than on text.

export type DuckDBErrorKind =
  /** Another process holds the file (DuckDB's file lock). */
  | 'busy'
  /** No space left, or the file reached a size limit. */
  | 'disk-full'
  /** A damaged block, or a file that is not DuckDB's (cut short, or something else). */
  | 'corrupt'
  /** DuckDB stopped writing after a fatal error. */
  | 'invalidated'
  /** The operating system refused access (permissions, a read-only file system). */
  | 'refused'
  | 'out-of-memory'
  | 'other';

const KINDS: [Exclude<DuckDBErrorKind, 'other'>, RegExp][] = [
  ['busy', /Could not set lock on file|Conflicting lock/i],
  ['disk-full', /No space left on device|File too large|disk is full|ENOSPC|EFBIG/i],
  ['corrupt', /Corrupt database file|checksum .* does not match|not a valid DuckDB database file|database file .* is corrupt|Could not read enough bytes/i],
  ['invalidated', /FATAL Error|database has been invalidated/i],
  ['refused', /permission denied|EACCES|EPERM|read-only file system|EROFS/i],
  ['out-of-memory', /Out of Memory|memory limit/i],
];

/** The first line of what DuckDB said (its messages may go on with hints and context). */
export function duckdbSaid(error: unknown): string {
  return firstLine(error);
}

/** The kind of `error`, judged by its own first line and, when it wraps one, its cause's. */
export function duckdbErrorKind(error: unknown): DuckDBErrorKind {
  const own = firstLine(error);
  const cause = error instanceof Error && error.cause instanceof Error ? firstLine(error.cause) : '';
  for (const [kind, words] of KINDS) if (words.test(own) || words.test(cause)) return kind;
  return 'other';
}

/** Whether DuckDB raised `error` as an input/output failure (whatever its kind). */
export function isDuckDBIoError(error: unknown): boolean {
  return /^IO Error/i.test(firstLine(error));
}

/** The process DuckDB names as holding the file's lock ("PID 1234"), if it names one. */
export function lockHolder(error: unknown): string | undefined {
  return /PID (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error ?? '')).split('\n')[0]!.trim();
}
