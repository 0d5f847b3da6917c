// The CLI as people and cron meet it: on a real terminal (a pty from `script`, and tmux at 120×40)
// tables fit 80 and 120 columns and show wall times and 2-decimal prices, logs are one line each
// above the progress bar, NO_COLOR is honoured; piped, numbers carry no float noise and every log
// line is JSON with unique keys; a config with several errors lists them all; --version,
// status --check, run with nothing tracked, an unknown tariff.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { CLI, runCli } from './helpers/runCli.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';
const H = 'E-1R-AGILE-24-10-01-H'; // 2026-03-28 20:00Z … 2026-03-29 23:30Z
const ESC = '\u001b[';

let sandbox: Sandbox;
const tmp = tempDir('tariffs-terminal-');
const db = tmp.file('w.duckdb');

function shellQuote(arg: string): string {
  return /^[\w./:=@,+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/** Runs the CLI on a pseudo-terminal `cols` wide; stdout and stderr both land on it. (Async: the
 *  sandbox answering it runs in this process.) */
function onTerminal(args: string[], cols: number, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; screen: string }> {
  const command = `stty cols ${cols} rows 40; exec ${[process.execPath, CLI, ...args].map(shellQuote).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, TARIFFS_LOG_LEVEL: '', NO_COLOR: '', ...env }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (screen += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen: screen.replaceAll('\r', '') });
    });
  });
}

const visible = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
const lines = (text: string) => visible(text).split('\n').filter((l) => l !== '');

/** The keys at the top level of a JSON object's text, in order, duplicates kept. */
function topLevelKeys(json: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (c === '"') {
      let j = i + 1;
      while (json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
      if (depth === 1 && json[j + 1] === ':') keys.push(JSON.parse(json.slice(i, j + 1)) as string);
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  await ingest(db, sandbox.baseUrl, { tariffs: [J, H], from: new Date('2023-10-20T00:00:00Z'), to: new Date('2023-11-05T00:00:00Z') });
  await ingest(db, sandbox.baseUrl, { tariffs: [H], from: new Date('2026-03-28T00:00:00Z') });
}, 120_000);
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

describe('tables on a terminal', () => {
  const cheapest = ['cheapest', '--db', db, '--tariff', J, '--duration', '2h', '--per-day', '--from', '2023-10-28', '--to', '2023-10-31'];

  for (const cols of [80, 120]) {
    it(`cheapest, daily and status fit ${cols} columns, in wall time with 2-decimal prices`, async () => {
      const json = JSON.parse((await runCli([...cheapest, '--format', 'json'])).stdout) as Record<string, unknown>[];
      const shown = await onTerminal(cheapest, cols);
      expect(shown.code).toBe(0);
      const out = lines(shown.screen);
      for (const line of out) expect(line.length, line).toBeLessThanOrEqual(cols);
      expect(out[0]).toBe(J); // the series, said once
      const header = out[1]!.split(/\s+/);
      expect(header).toEqual(expect.arrayContaining(['local_date', 'local_start', 'local_end', 'mean_inc_vat']));
      for (const hidden of ['start', 'end', 'payment_method', 'rate_type', 'tariff_code']) expect(header).not.toContain(hidden);
      expect(visible(shown.screen)).not.toMatch(/\d\d:\d\d:\d\dZ/);
      // each day's row: wall times, and the JSON's mean to 2 decimals; the repeated hour names its zone
      json.forEach((w, i) => {
        const row = out[3 + i]!;
        expect(row.startsWith(String(w.local_date))).toBe(true);
        expect(row).toContain(` ${(w.mean_inc_vat as number).toFixed(2)}`);
        expect(row).toMatch(new RegExp(` ${String(w.local_start).slice(11, 16)}( [+-]\\d\\d:\\d\\d)? `));
      });
      expect(out.find((l) => l.startsWith('2023-10-29'))).toMatch(/01:\d\d \+0[01]:00/);

      const daily = await onTerminal(['daily', '--db', db, '--tariff', J, '--from', '2023-10-28', '--to', '2023-10-31'], cols);
      const dailyLines = lines(daily.screen);
      for (const line of dailyLines) expect(line.length, line).toBeLessThanOrEqual(cols);
      const dailyHeader = dailyLines[1]!.split(/\s+/);
      expect(dailyHeader.slice(0, 2)).toEqual(['local_date', 'slots']);
      expect(dailyHeader).toContain('mean_inc_vat');
      expect(dailyLines.filter((l) => /^2023-10-(28|29|30) /.test(l))).toHaveLength(3);
      if (cols === 80) {
        // the footer names every column left out, over as many lines as it takes
        const footer = dailyLines.slice(dailyLines.findIndex((l) => l.startsWith('3 rows'))).join(' ').replace(/\s+/g, ' ');
        expect(footer).toMatch(/^3 rows; \d+ more columns with --format csv or json: \w+(, \w+)*$/);
        const named = footer.split(': ')[1]!.split(', ');
        expect(named.length).toBe(Number(/(\d+) more/.exec(footer)![1]));
        for (const column of named) expect(dailyHeader).not.toContain(column);
      }

      const status = await onTerminal(['status', '--db', db, '--now', '2026-03-28T17:00:00Z'], cols);
      expect(status.code).toBe(0);
      const statusLines = lines(status.screen);
      for (const line of statusLines) expect(line.length, line).toBeLessThanOrEqual(cols);
      const statusHeader = statusLines.find((l) => l.startsWith('tariff '))!;
      expect(statusHeader).toContain('latest_slot_local');
      expect(statusHeader).not.toContain('latest_slot_utc');
      expect(statusLines.find((l) => l.startsWith(H))).toContain('2026-03-30 00:30');
    });
  }

  it('the more room, the more columns', async () => {
    const args = ['daily', '--db', db, '--tariff', J, '--from', '2023-10-28', '--to', '2023-10-31'];
    const columnsAt = async (cols: number) => lines((await onTerminal(args, cols)).screen)[1]!.split(/\s+/).length;
    expect(await columnsAt(120)).toBeGreaterThan(await columnsAt(80));
    // all 17 but the series (said above; no payment method, all standard) and day_start_local (midnight)
    expect(await columnsAt(240)).toBe(13);
  });
});

describe('logs on a terminal', () => {
  const empty = () => ['ingest', '--db', tmp.file(`empty-${Math.random()}.duckdb`), '--base-url', sandbox.baseUrl,
    '--tariff', J, '--from', '2030-01-01', '--to', '2030-01-02', '--no-products'];

  it('shows warnings one line each, coloured unless NO_COLOR or --no-color, and no info lines', async () => {
    const coloured = await onTerminal(empty(), 120);
    expect(coloured.code).toBe(0);
    expect(coloured.screen).toContain(ESC);
    const warning = lines(coloured.screen).filter((l) => l.includes('no standard rates'));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toMatch(/^\[\d\d:\d\d:\d\d\] WARN: no standard rates for E-1R-AGILE-18-02-21-J/);
    expect(visible(coloured.screen)).not.toMatch(/INFO:/);
    for (const plain of [await onTerminal(empty(), 120, { NO_COLOR: '1' }), await onTerminal([...empty(), '--no-color'], 120)]) {
      expect(plain.code).toBe(0);
      expect(plain.screen).not.toContain(ESC);
      expect(plain.screen).toContain('WARN: no standard rates');
    }
    expect(lines((await onTerminal([...empty(), '-v'], 120, { NO_COLOR: '1' })).screen).some((l) => l.includes('INFO:'))).toBe(true);
  });

  it('tmux 120x40: an ingest keeps its log lines whole above the bar, and its summary on one screen', async () => {
    const file = tmp.file('tmux.duckdb');
    sandbox.setLatency(40);
    const session = `tariffs-test-${process.pid}`;
    const done = tmp.file('tmux.done');
    try {
      const command = [process.execPath, CLI, 'ingest', '--db', file, '--base-url', sandbox.baseUrl, '--tariff', J,
        '--tariff', 'E-1R-AGILE-18-02-21-N', '--from', '2021-01-01', '--no-products'].map(shellQuote).join(' ');
      execFileSync('tmux', ['new-session', '-d', '-x', '120', '-y', '40', '-s', session,
        `NO_COLOR=1 TARIFFS_LOG_LEVEL= ${command}; touch ${shellQuote(done)}; sleep 60`]);
      const started = Date.now();
      while (!existsSync(done) && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 200));
      const screen = execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
      const shown = screen.split('\n').filter((l) => l.trim() !== '');
      // the warning is whole, on a line of its own, never glued to the bar
      expect(shown.filter((l) => l.startsWith('['))).toEqual([expect.stringMatching(/^\[\d\d:\d\d:\d\d\] WARN: no standard rates for E-1R-AGILE-18-02-21-N/)]);
      expect(screen).not.toMatch(/records|░|█/); // the bar is cleared when done
      // the summary, whole, as field/value lines
      const summary = shown.slice(shown.findIndex((l) => l.startsWith('run_id')));
      expect(summary.map((l) => l.split(/\s+/)[0])).toEqual(expect.arrayContaining(['run_id', 'status', 'inserted', 'pages', 'empty']));
      expect(summary.find((l) => l.startsWith('status'))).toMatch(/^status\s+ok$/);
      for (const line of shown) expect(line.length).toBeLessThanOrEqual(120);
    } finally {
      sandbox.setLatency(0);
      try {
        execFileSync('tmux', ['kill-session', '-t', session]);
      } catch {
        // already gone
      }
    }
  });

  it('a progress bar starts from the first page\'s count, never at 0/0', async () => {
    sandbox.setLatency(60);
    try {
      const run = await onTerminal(['ingest', '--db', tmp.file('bar.duckdb'), '--base-url', sandbox.baseUrl, '--tariff', J,
        '--from', '2020-01-01', '--no-products'], 120, { NO_COLOR: '1' });
      expect(run.code).toBe(0);
      const frames = visible(run.screen).split(/\n|\u001b\[\d*[GK]/).filter((f) => f.includes('records'));
      expect(frames.length).toBeGreaterThan(0);
      for (const frame of frames) expect(frame).not.toMatch(/ 0\/0 records/);
      expect(frames.some((f) => /\d+\/\d{5} records/.test(f))).toBe(true);
    } finally {
      sandbox.setLatency(0);
    }
  });
});

describe('in a pipe or a log file', () => {
  it('numbers carry no float noise: at most 4 decimals, as in the exported files', async () => {
    const csv = await runCli(['cheapest', '--db', db, '--tariff', J, '--duration', '3h', '--per-day', '--from', '2023-10-20', '--to', '2023-11-04', '--format', 'csv']);
    const daily = await runCli(['daily', '--db', db, '--tariff', J, '--format', 'json']);
    const monthly = await runCli(['monthly', '--db', db, '--tariff', J, '--format', 'json']);
    for (const text of [csv.stdout, daily.stdout, monthly.stdout]) {
      expect(text.length).toBeGreaterThan(100);
      expect(text).not.toMatch(/\d\.\d{5,}/);
    }
    // daily's columns in the order of the exported daily_stats.csv (whose UTC instants beside each
    // local time, with their naive wall times and offsets, are the export's own: a table for people
    // keeps the local time)
    const exported = tmp.file('exported');
    expect((await runCli(['export', '--db', db, '--out', exported, '--format', 'csv', '--tariff', J])).code).toBe(0);
    const header = readFileSync(`${exported}/daily_stats.csv`, 'utf8').split('\n')[0]!.split(',');
    expect(header).toContain('day_start_utc');
    expect(header).toContain('day_start_wall');
    expect(Object.keys(JSON.parse(daily.stdout)[0])).toEqual(header.filter((c) => !/_utc$|_wall$|_utc_offset_minutes$/.test(c)));
  });

  it('every log line is JSON with unique keys; run_id is the warehouse number; run prints one JSON line', async () => {
    const config = tmp.file('rates.json');
    writeFileSync(config, JSON.stringify({ db: tmp.file('cron.duckdb'), base_url: sandbox.baseUrl, tariffs: [H], default_from: '2026-03-28' }));
    const ran = await runCli(['run', 'rates', '--config', config], { env: { TARIFFS_LOG_LEVEL: 'info' } });
    expect(ran.code).toBe(0);
    expect(ran.stdout.trimEnd().split('\n')).toHaveLength(1);
    const [outcome] = JSON.parse(ran.stdout) as { run_id: number }[];
    const logged = ran.stderr.trim().split('\n');
    expect(logged.length).toBeGreaterThan(3);
    for (const line of logged) {
      const keys = topLevelKeys(line);
      expect(new Set(keys).size, line).toBe(keys.length);
      JSON.parse(line);
    }
    const done = logged.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'ingest ok')!;
    expect(done.run_id).toBe(outcome!.run_id);
    expect(typeof done.run_id).toBe('number');
    expect(typeof done.job_run).toBe('string');
  });
});

describe('configuration and first steps', () => {
  it('a config with three errors reports all three, with their keys, and exits 2 before anything starts', async () => {
    const config = tmp.file('bad.json');
    const target = tmp.file('never.duckdb');
    writeFileSync(config, JSON.stringify({
      db: target, default_from: 'last tuesday', base_url: 'http://example.com/v1/', schedules: { rates: '*/61 * * * *' },
    }));
    for (const args of [['status'], ['schedule', '--list'], ['schedule'], ['run', 'rates']]) {
      const result = await runCli([...args, '--config', config], { timeoutMs: 20_000 });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/3 problems/);
      expect(result.stderr).toMatch(/default_from: 'last tuesday'/);
      expect(result.stderr).toMatch(/base_url: plain http:\/\/ is refused/);
      expect(result.stderr).toMatch(/schedules\.rates: '\*\/61 \* \* \* \*'.*step \/61/);
    }
    expect(existsSync(target)).toBe(false);
  });

  it('--version prints the package version; run rates with nothing tracked says so and exits 2', async () => {
    const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect((await runCli(['--version'])).stdout.trim()).toBe(version);
    const config = tmp.file('empty.json');
    writeFileSync(config, JSON.stringify({ db: tmp.file('nothing.duckdb') }));
    const run = await runCli(['run', 'rates', '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/nothing to fetch: --config .* lists no tariffs, products or accounts/);
  });

  it('status --check: exit 0 when current, 1 naming each problem', async () => {
    const now = ['--now', '2026-03-28T17:00:00Z'];
    const ok = await runCli(['status', '--db', db, '--check', ...now]);
    expect(ok.stderr).toMatch(/E-1R-AGILE-18-02-21-J: stale/); // J ended in 2024
    expect(ok.code).toBe(1);
    const config = tmp.file('h.json');
    writeFileSync(config, JSON.stringify({ db, tariffs: [H] }));
    const current = await runCli(['status', '--config', config, '--check', ...now]);
    expect(current.stderr).toBe('');
    expect(current.code).toBe(0);
    const w = await Warehouse.open(db);
    await w.run(`DELETE FROM unit_rates WHERE tariff_code = '${H}' AND valid_from = TIMESTAMPTZ '2026-03-29T05:00:00Z'`);
    w.close();
    const late = await runCli(['status', '--config', config, '--check', '--now', '2026-03-28T20:30:00Z', '--format', 'json']);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/E-1R-AGILE-24-10-01-H: tomorrow \(2026-03-29\) incomplete after 20:00: 45\/46/);
    expect(JSON.parse(late.stdout).problems.length).toBeGreaterThanOrEqual(1);
  });

  it('an unknown tariff code is said plainly and not kept in tariffs', async () => {
    const file = tmp.file('unknown.duckdb');
    const run = await runCli(['ingest', '--db', file, '--base-url', sandbox.baseUrl, '--tariff', 'E-1R-NOSUCH-24-01-01-A',
      '--tariff', J, '--from', '2024-01-01', '--to', '2024-01-02', '--no-products', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/tariffs: unknown tariff E-1R-NOSUCH-24-01-01-A: the API has no standard unit rates for it \(404\)/);
    expect(await query(file, 'SELECT tariff_code FROM tariffs ORDER BY 1')).toEqual([{ tariff_code: J }]);
  });

  it('monthly and gaps take --from/--to as documented', async () => {
    const monthly = JSON.parse((await runCli(['monthly', '--db', db, '--tariff', J, '--from', '2023-11-01', '--format', 'json'])).stdout);
    expect(monthly.map((m: { month: string }) => m.month.slice(0, 7))).toEqual(['2023-11']);
    const gaps = await runCli(['gaps', '--db', db, '--from', '2023-10-25', '--to', '2023-10-26', '--format', 'json']);
    expect(gaps.code).toBe(0);
    expect(JSON.parse(gaps.stdout)).toEqual([]);
  });
});
