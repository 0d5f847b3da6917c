// The events file argument of `tariffs events load`: `-` is stdin, anything else a file opened
// before the database is touched, so a wrong path fails fast (and creates no empty warehouse).
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

export interface EventInput {
  stream: Readable;
  /** The `source` column: the absolute path (unambiguous whatever the working directory), or `stdin`. */
  source: string;
}

export async function openEventInput(file: string, stdin: Readable = process.stdin): Promise<EventInput> {
  if (file === '-') return { stream: stdin, source: 'stdin' };
  const path = resolve(file);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`events file not found: ${file}`, { cause: error });
    if (code === 'EACCES') throw new UsageError(`events file not readable (permission denied): ${file}`, { cause: error });
    throw new UsageError(`cannot open events file ${file}: ${code ?? String(error)}`, { cause: error });
  }
  const stat = await handle.stat();
  if (stat.isDirectory()) {
    await handle.close();
    throw new UsageError(`events file is a directory: ${file}`);
  }
  // A regular file, or a pipe such as <(zcat events.jsonl.gz).
  return { stream: handle.createReadStream({ highWaterMark: 1 << 20 }), source: path };
}
