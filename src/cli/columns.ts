// How wide the terminal is, for tables, help and progress bars: the stream's own width when it is a
// terminal, else the COLUMNS variable (set it to get tables and help of a given width in a pipe or
// a test: `COLUMNS=60 tariffs tariffs --format table`). COLUMNS is the shell's word for the
// terminal's width (as ls and less read it), not configuration, so it is read here, not in loadConfig.
// No imports: the help path loads this.

/** Columns of `stream` if it is a terminal, else COLUMNS when it is a whole number ≥ 20. */
export function columnsOf(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (stream.isTTY && stream.columns > 0) return stream.columns;
  const text = env.COLUMNS?.trim();
  if (text !== undefined && /^\d+$/.test(text) && Number(text) >= 20) return Number(text);
  return undefined;
}
