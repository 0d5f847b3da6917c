// WriteSession on real DuckDB files: what it publishes, when it publishes nothing, how it adopts a
// --db changed behind the job's back (a restored backup, an older tariffs writing it directly),
// that a --db removed by the user starts a new warehouse rather than coming back, and that a
// working file or a lock file DuckDB cannot open does not stop every later run.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { Writable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log/createLogger.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { holdWriteLock, jobPaths, WriteSession } from '../src/store/WriteSession.js';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-write-session-');
afterAll(() => tmp.remove());

const marks = async (db: string) => (await query(db, `SELECT job FROM ingest_runs ORDER BY run_id`)).map((r) => r.job);

async function mark(session: WriteSession, job: string): Promise<void> {
  await session.warehouse.run(`INSERT INTO ingest_runs (run_id, job, started_at, status) VALUES (nextval('ingest_run_ids'), $job, now(), 'ok')`, { job });
}

describe('WriteSession', () => {
  it('publishes --db at once when there is none, then what each session changed, and nothing when nothing changed', async () => {
    const db = tmp.file('a.duckdb');
    const session = await WriteSession.open(db);
    expect(existsSync(db)).toBe(true); // readers find a warehouse from the job's first moment
    expect(await marks(db)).toEqual([]);
    await mark(session, 'first');
    expect(await marks(db)).toEqual([]); // not before the publish
    expect((await session.finish()).published).toBe(true);
    expect(await marks(db)).toEqual(['first']);
    const inode = statSync(db).ino;
    const again = await WriteSession.open(db);
    expect((await again.finish()).published).toBe(false);
    expect(statSync(db).ino).toBe(inode);
    // nothing beside --db but the job's folder; no copies left
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('.a.duckdb') || f.startsWith('a.duckdb'))).toEqual(['.a.duckdb.job', 'a.duckdb']);
  });

  it('publishes a change that leaves the working file the same size', async () => {
    const db = tmp.file('same-size.duckdb');
    const { work } = jobPaths(db);
    const session = await WriteSession.open(db);
    await mark(session, 'job 0');
    await session.publish();
    // Checkpoints alternate between the blocks they free, so a file rewritten twice over is
    // often back at its size: a round in which it is, is the case in question.
    const sameSize: number[] = [];
    for (let round = 1; round <= 6 && sameSize.length < 2; round++) {
      const size = statSync(work).size;
      for (const step of ['a', 'b']) {
        await session.warehouse.run(`UPDATE ingest_runs SET job = $job`, { job: `job ${round}${step}` });
        await session.warehouse.checkpoint();
      }
      if (statSync(work).size === size) sameSize.push(round);
      expect((await session.publish()).published).toBe(true);
      expect(await marks(db)).toEqual([`job ${round}b`]);
    }
    await session.finish();
    expect(sameSize.length).toBeGreaterThan(0);
  });

  it("publishes a writer's commits that never got published (a killed run) when the next writer starts", async () => {
    const db = tmp.file('killed.duckdb');
    const first = await WriteSession.open(db);
    await mark(first, 'committed');
    first.close(); // no publish, as when the process is killed
    expect(await marks(db)).toEqual([]);
    const next = await WriteSession.open(db);
    expect(await marks(db)).toEqual(['committed']);
    next.close();
  });

  it('adopts a --db written by something else, and starts afresh when --db was removed', async () => {
    const db = tmp.file('b.duckdb');
    const first = await WriteSession.open(db);
    await mark(first, 'job');
    await first.finish();
    // written directly, as an older tariffs or a restored backup would leave it
    const direct = await Warehouse.open(db);
    await direct.run(`INSERT INTO ingest_runs (run_id, job, started_at, status) VALUES (nextval('ingest_run_ids'), 'direct', now(), 'ok')`);
    direct.close();
    const second = await WriteSession.open(db);
    await mark(second, 'after');
    await second.finish();
    expect(await marks(db)).toEqual(['job', 'direct', 'after']);

    rmSync(db, { force: true });
    const fresh = await WriteSession.open(db);
    await fresh.finish();
    expect(await marks(db)).toEqual([]);
  });

  it('a working file whose WAL DuckDB cannot replay is set aside, and the job starts again from --db', async () => {
    const db = tmp.file('unreplayable.duckdb');
    const paths = jobPaths(db);
    const first = await WriteSession.open(db);
    await mark(first, 'published');
    await first.finish();
    const second = await WriteSession.open(db);
    await mark(second, 'committed, never published');
    second.close();
    // a commit left in the working file's WAL (no checkpoint at close, as when a writer is killed),
    // then one byte of it changed: DuckDB refuses the file ("Failure while replaying WAL file …")
    const direct = await DuckDBInstance.create(paths.work);
    const connection = await direct.connect();
    await connection.run("PRAGMA disable_checkpoint_on_shutdown; SET wal_autocheckpoint = '1TB'");
    await connection.run(`INSERT INTO ingest_runs (run_id, job, started_at, status) VALUES (nextval('ingest_run_ids'), 'in the WAL', now(), 'ok')`);
    connection.closeSync();
    direct.closeSync();
    const wal = readFileSync(`${paths.work}.wal`);
    wal[wal.length >> 1]! ^= 0xff;
    writeFileSync(`${paths.work}.wal`, wal);
    await expect(DuckDBInstance.create(paths.work)).rejects.toThrow(/replaying WAL/);

    const logs: { level: number; msg: string; kept?: string }[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const third = await WriteSession.open(db, { logger: createLogger({ destination }) });
    await mark(third, 'after');
    await third.finish();
    // what was published stays; what never was is gone (an ingest fetches it again)
    expect(await marks(db)).toEqual(['published', 'after']);
    const warning = logs.find((l) => l.level === 40)!;
    expect(warning.msg).toMatch(/working file could not be opened/);
    expect(warning.kept).toBe(`${paths.folder}/unreadable`);
    expect(readdirSync(warning.kept!).sort()).toEqual(['warehouse.duckdb', 'warehouse.duckdb.wal']);
    // the next writer opens the new working file as usual
    const fourth = await WriteSession.open(db);
    expect((await fourth.finish()).published).toBe(false);
  });

  it('a lock file cut short (empty, or not a DuckDB file) does not refuse writers: it is repaired in place', async () => {
    const db = tmp.file('lock-cut-short.duckdb');
    const { lock } = jobPaths(db);
    await (await WriteSession.open(db)).finish();
    const inode = statSync(lock).ino;
    for (const contents of [Buffer.alloc(0), Buffer.from('not a database at all')]) {
      writeFileSync(lock, contents);
      const session = await WriteSession.open(db);
      await mark(session, `after ${contents.length} bytes`);
      // still one lock file: a second writer waits on the same one
      await expect(WriteSession.open(db, { busyTimeoutMs: 0 })).rejects.toMatchObject({ code: 'DB_BUSY' });
      await session.finish();
      expect(statSync(lock).ino).toBe(inode);
    }
    expect(await marks(db)).toEqual(['after 0 bytes', 'after 21 bytes']);
    expect(readdirSync(jobPaths(db).folder).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a second writer waits for the first, then fails busy after its timeout; readers never wait', async () => {
    const db = tmp.file('c.duckdb');
    const first = await WriteSession.open(db);
    const started = Date.now();
    await expect(WriteSession.open(db, { busyTimeoutMs: 300, purpose: 'second' })).rejects.toMatchObject({ code: 'DB_BUSY' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // a reader of --db meanwhile
    expect(await query(db, 'SELECT count(*) AS n FROM ingest_runs')).toEqual([{ n: 0 }]);
    const waiting = WriteSession.open(db, { busyTimeoutMs: 60_000 });
    await mark(first, 'first');
    await first.finish();
    const second = await waiting;
    await mark(second, 'second');
    await second.finish();
    expect(await marks(db)).toEqual(['first', 'second']);
    // the busy attempt was noted, and moved into busy_attempts by the next writer
    expect(await query(db, 'SELECT job, waited_seconds FROM busy_attempts')).toEqual([{ job: 'second', waited_seconds: 0.3 }]);
    expect(existsSync(jobPaths(db).busyLog)).toBe(false);
    const release = await holdWriteLock(db);
    release();
  });

  it("status shows the size of the jobs' working file (none before a job wrote)", async () => {
    const db = tmp.file('status.duckdb');
    const direct = await Warehouse.open(db);
    direct.close();
    const before = await runCli(['status', '--db', db, '--format', 'json']);
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout).working_file_bytes).toBeNull();
    const session = await WriteSession.open(db);
    await mark(session, 'job');
    await session.finish();
    const { work } = jobPaths(db);
    const json = await runCli(['status', '--db', db, '--format', 'json']);
    expect(JSON.parse(json.stdout).working_file_bytes).toBe(statSync(work).size);
    const table = await runCli(['status', '--db', db, '--format', 'table']);
    const folder = basename(dirname(work));
    expect(table.stdout).toContain(`\nJobs' working file: ${(statSync(work).size / 1e6).toFixed(1)} MB (${folder}/ beside the database)\n`);
  });
});
