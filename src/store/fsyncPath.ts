// Flushes a file (or, opened 'r', a directory's entries) to disk: before a rename makes it the
// real thing, and after, so the rename itself survives a crash.
import { closeSync, fsyncSync, openSync } from 'node:fs';

export function fsyncPath(path: string, flags: 'r' | 'r+' = 'r+'): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
