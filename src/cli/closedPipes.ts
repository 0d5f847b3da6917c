// Output to a closed pipe (`tariffs sql "…" | head -1`) ends the command quietly, as git and grep
// do: the reader has what it wanted. Without a listener Node turns EPIPE into a stack trace.
export function quietOnClosedPipes(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    // Nothing more can be shown; a status already decided (e.g. a failure) is kept.
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
  // stderr gone (an orphaned run whose log reader died): keep going so the run can stop cleanly.
  process.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
