// Notices that the process that started us went away. `npx tariffs …` runs the bin under
// `sh -c`, and a SIGTERM to npx (kill, docker stop, timeout, a CI cancel) ends the wrapper
// without passing the signal on: the orphaned CLI would run to the end holding the database.
// Polling the parent pid (it changes when we are re-parented) lets it stop as on SIGTERM.

/** Calls `onGone` once when our parent process exits; returns a function that stops watching. */
export function watchParent(onGone: () => void, intervalMs = 500): () => void {
  const parent = process.ppid;
  // Started by pid 1 (or none, as a container's init) there is nothing to notice.
  if (parent <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
