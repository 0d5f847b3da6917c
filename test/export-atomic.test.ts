// writeAtomically: the target holds the old content until the new file is complete, a failed
// write leaves the old file and no temporary file behind.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPORARY_FILE, temporaryPathFor, writeAtomically } from '../src/report/writeAtomically.js';
import { tempDir } from './helpers/warehouseTools.js';

describe('writeAtomically', () => {
  const tmp = tempDir('tariffs-atomic-');
  afterAll(() => tmp.remove());

  it('names the temporary file beside the target, hidden, keeping the extension', () => {
    const path = temporaryPathFor(join(tmp.dir, 'daily_stats.csv'));
    expect(path.startsWith(join(tmp.dir, '.daily_stats.tmp-'))).toBe(true);
    expect(path.endsWith('.csv')).toBe(true);
    expect(TEMPORARY_FILE.test(path.split('/').at(-1)!)).toBe(true);
    expect(temporaryPathFor(join(tmp.dir, 'daily_stats.csv'))).not.toBe(path);
  });

  it('replaces the target only once the new content is complete', async () => {
    const dir = join(tmp.dir, 'replace');
    mkdirSync(dir);
    const target = join(dir, 'report.csv');
    writeFileSync(target, 'old\n');
    const seenDuringWrite: string[] = [];
    const rows = await writeAtomically(target, async (tmpPath) => {
      writeFileSync(tmpPath, 'new, first half\n');
      seenDuringWrite.push(readFileSync(target, 'utf8'));
      writeFileSync(tmpPath, 'new, first half\nsecond half\n', { flag: 'w' });
      seenDuringWrite.push(readFileSync(target, 'utf8'));
      return 2;
    });
    expect(rows).toBe(2);
    expect(seenDuringWrite).toEqual(['old\n', 'old\n']);
    expect(readFileSync(target, 'utf8')).toBe('new, first half\nsecond half\n');
    expect(readdirSync(dir)).toEqual(['report.csv']);
  });

  it('keeps the old file and removes the partial one when the write fails', async () => {
    const dir = join(tmp.dir, 'fail');
    mkdirSync(dir);
    const target = join(dir, 'report.csv');
    writeFileSync(target, 'old\n');
    let partial = '';
    await expect(writeAtomically(target, async (tmpPath) => {
      partial = tmpPath;
      writeFileSync(tmpPath, 'half a fi');
      throw new Error('disk full');
    })).rejects.toThrow('disk full');
    expect(existsSync(partial)).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['report.csv']);
  });

  it('fails when the writer did not create the file, leaving nothing behind', async () => {
    const dir = join(tmp.dir, 'nothing');
    mkdirSync(dir);
    await expect(writeAtomically(join(dir, 'x.csv'), async () => undefined)).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
