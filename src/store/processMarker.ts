// Small JSON files beside a warehouse that say which process is doing something to it (a writer
// holding the lock, the scheduler daemon): written when it starts, removed when it ends. A process
// killed leaves its marker behind; a reader tells that by the pid being gone (stale).
import { readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';

export interface ProcessMarker {
  pid: number;
  /** ISO 8601 UTC. */
  started_at: string;
  /** What the process does (a job's name for a writer). */
  purpose?: string;
}

export interface ReadMarker extends ProcessMarker {
  /** False when no process has that pid any more: the marker is stale. */
  alive: boolean;
}

/** Writes the marker of this process (atomically: a reader never sees half of it). A marker is
 *  information, not a lock: false when it could not be written, and the work goes on. */
export function writeMarker(path: string, marker: ProcessMarker): boolean {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(marker)}\n`);
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** Removes the marker if it is this process's own (another may have written one since). */
export function removeOwnMarker(path: string): void {
  try {
    if (readMarkerFile(path)?.pid === process.pid) rmSync(path, { force: true });
  } catch {
    // a marker left behind is read as stale once this process is gone
  }
}

/** The marker at `path` (null: none, or unreadable), with whether its process is alive. */
export function readMarker(path: string): ReadMarker | null {
  const marker = readMarkerFile(path);
  return marker === null ? null : { ...marker, alive: processAlive(marker.pid) };
}

function readMarkerFile(path: string): ProcessMarker | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<ProcessMarker>;
    if (typeof value.pid !== 'number' || typeof value.started_at !== 'string') return null;
    return { pid: value.pid, started_at: value.started_at, ...(typeof value.purpose === 'string' ? { purpose: value.purpose } : {}) };
  } catch {
    return null;
  }
}

/** Signal 0 checks that a process exists without touching it (EPERM: it exists, another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
