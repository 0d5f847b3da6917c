// Progress for everything long (issue 27, items 2 and 3), on a real pseudo-terminal (`script`):
// `export` shows a bar counting its reports and series (at 60 columns too, never cut), `schedule`
// says when it starts (its jobs, their next runs in Europe/London), one line per run and goodbye on
// Ctrl-C; piped, both print only what they did before. Progress that moves (issue 54, item 4): the
// demo's bars tick while they work (judged by the bar's own clock, never the test's), show no time
// left before there is progress to work it out from, name the work after the last record (storing,
// publishing), and the first Ctrl-C's notice is a line of its own above the bar.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportReports } from '../src/report/exportReports.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { buildExportFixture, FIXTURE_TARIFFS } from './helpers/exportFixture.js';
import { CLI, runCli } from './helpers/runCli.js';
import { writeConfig } from './helpers/schedulerProcess.js';
import { tempDir } from './helpers/warehouseTools.js';

let sandbox: Sandbox;
const tmp = tempDir('tariffs-progress-tty-');
const db = tmp.file('fixture.duckdb');

beforeAll(async () => {
  sandbox = await startSandbox();
  await buildExportFixture(db, sandbox);
}, 120_000);
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

function shellQuote(arg: string): string {
  return /^[\w./:=@,+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

interface Terminal {
  screen(): string;
  /** As the terminal shows it: a carriage return within a line goes back over what came before. */
  shown(): string[];
  /** Types on the terminal (^C is "\u0003"). */
  type(text: string): void;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  closed: Promise<number | null>;
}

/** The CLI on a pseudo-terminal `cols` wide; stdout and stderr both land on it. */
function onTerminal(args: string[], cols: number, killAfterMs = 90_000): Terminal {
  const command = `stty cols ${cols} rows 40; exec ${[process.execPath, CLI, ...args].map(shellQuote).join(' ')}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...process.env, TARIFFS_LOG_LEVEL: '', NO_COLOR: '1', TARIFFS_CONFIG: '', XDG_CONFIG_HOME: '/nonexistent-tariffs-test-config' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => {
    clearTimeout(killer);
    resolve(code);
  }));
  const screen = () => text.replaceAll('\r', '');
  return {
    screen,
    shown: () => visible(text).split('\n').map((l) => l.replace(/\r$/, '').split('\r').at(-1)!),
    type: (keys) => child.stdin.write(keys),
    closed,
    async waitFor(pattern, timeoutMs = 60_000) {
      const started = Date.now();
      // lines wrapped to the terminal (continued indented) read as one
      while (!pattern.test(visible(screen()).replace(/\n +/g, ' '))) {
        if (Date.now() - started > timeoutMs) throw new Error(`not on the terminal after ${timeoutMs} ms: ${pattern}\n${visible(screen())}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

const visible = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
/** Every state the bar's line was drawn in (cli-progress redraws it in place). */
const frames = (text: string) => visible(text.replace(/\u001b\[\d*[GK]/g, '\n')).split('\n');

/** A bar's line taken apart: `label [███░░] 42% | 12/34 steps | 5s so far, 9s left | what 2s`. */
interface BarFrame {
  text: string;
  label: string;
  percent: number;
  value: number;
  total: number;
  /** The bar's own clock: seconds since it appeared. */
  soFar: number;
  left: boolean;
  what: string | undefined;
}

function parseBar(text: string): BarFrame | undefined {
  const m = /^(\w+) \[[\u2588\u2591]+\] (\d+)% \| (\d+)\/(\d+) (?:steps|records) \| ((?:(\d+)h(\d+)m|(?:(\d+)m)?(\d+)s) so far(, [\dhms]+ left)?)(?: \| (.*))?$/.exec(text);
  if (!m) return undefined;
  const soFar = m[6] !== undefined ? Number(m[6]) * 3600 + Number(m[7]) * 60 : Number(m[8] ?? 0) * 60 + Number(m[9]);
  return {
    text, label: m[1]!, percent: Number(m[2]), value: Number(m[3]), total: Number(m[4]), soFar, left: m[10] !== undefined, what: m[11],
  };
}

describe('progress that moves (the demo on a terminal)', () => {
  it('ticks while it works, shows no time left before progress, names the work after the last record', async () => {
    const dir = tmp.file('demo');
    const term = onTerminal(['demo', '--db', `${dir}/demo.duckdb`, '--out', `${dir}/reports`], 120, 170_000);
    expect(await term.closed).toBe(0);
    const drawn = frames(term.screen()).filter((f) => /^(ingest|export|summary) \[/.test(f));
    const bars = drawn.map((f) => parseBar(f));
    // every bar line has its counts and its seconds so far (at 120 columns there is room)
    bars.forEach((b, i) => expect(b, drawn[i]).toBeDefined());
    const all = bars as BarFrame[];
    for (const label of ['ingest', 'export', 'summary']) expect(all.some((b) => b.label === label), label).toBe(true);

    // Nothing stands still for more than 2 s while the work goes on: between two lines drawn one
    // after the other, the bar's own clock (its seconds so far) moved at most 2 s. A bar redraws
    // on a timer while the event loop is free; work holding the loop would show as a jump.
    for (let i = 1; i < all.length; i++) {
      const [before, after] = [all[i - 1]!, all[i]!];
      if (before.label !== after.label) continue;
      expect(after.soFar - before.soFar, `${before.text}\n${after.text}`).toBeLessThanOrEqual(2);
      expect(after.soFar, `${before.text}\n${after.text}`).toBeGreaterThanOrEqual(before.soFar);
    }

    // a time left only from real progress: none before anything is done, none on a bar's first
    // line, and for steps (which differ in size) only once a quarter of them are done
    for (const b of all) if (b.value === 0) expect(b.left, b.text).toBe(false);
    all.forEach((b, i) => {
      if (i === 0 || all[i - 1]!.label !== b.label) expect(b.left, b.text).toBe(false);
    });
    for (const b of all.filter((f) => f.label !== 'ingest')) if (b.value < b.total / 4) expect(b.left, b.text).toBe(false);
    expect(all.some((b) => b.label === 'export' && b.left), 'the export shows a time left once it can').toBe(true);

    // the export's opening statements are steps of their own: several done before its reports
    const exportFrames = all.filter((b) => b.label === 'export');
    expect(exportFrames.some((b) => b.value > 0 && /^report\.html: reading /.test(b.what ?? '')), exportFrames.map((b) => b.text).join('\n')).toBe(true);

    // the ingest at 100 %: always says what it does (storing the rates, publishing), never a bare bar
    const full = all.filter((b) => b.label === 'ingest' && b.value === b.total);
    expect(full.length).toBeGreaterThan(0);
    for (const b of full) expect(b.what ?? '', b.text).toMatch(/^(storing the rates|recording the run|publishing \S+) \d+s$/);
    expect(full.some((b) => /^publishing /.test(b.what ?? '')), full.map((b) => b.text).join('\n')).toBe(true);
  }, 180_000);
});

describe('an export lets the event loop turn while it draws', () => {
  it('many turns within each section of the page: the bar can redraw while charts are drawn', async () => {
    // a turn counter: one setImmediate after another, counting (no clock involved)
    let turns = 0;
    let counting = true;
    const turn = () => {
      turns++;
      if (counting) setImmediate(turn);
    };
    setImmediate(turn);
    const steps: { name: string; turns: number }[] = [];
    let current: { name: string; from: number } | undefined;
    let files;
    try {
      files = (await exportReports({
        db, outDir: tmp.file('turns'), formats: ['html'],
        progress: {
          expect: () => undefined,
          working: (name) => (current = { name, from: turns }),
          done: () => {
            if (current) steps.push({ name: current.name, turns: turns - current.from });
            current = undefined;
          },
        },
      })).files;
    } finally {
      counting = false;
    }
    const sections = steps.filter((s) => FIXTURE_TARIFFS.some((t) => s.name === `report.html: ${t}`));
    expect(sections.map((s) => s.name).sort()).toEqual(FIXTURE_TARIFFS.map((t) => `report.html: ${t}`).sort());
    // a turn after every chart (one each, the last of a section's perhaps after its step ends)
    const charts = files.find((f) => f.format === 'html')!.rows;
    const turnsIn = sections.reduce((n, s) => n + s.turns, 0);
    expect(turnsIn, sections.map((s) => `${s.name}: ${s.turns} turns`).join('; ')).toBeGreaterThanOrEqual(charts - sections.length);
  }, 120_000);
});

describe('Ctrl-C during an ingest on a terminal', () => {
  it('prints its notice on a line of its own, never in the bar\'s line', async () => {
    sandbox.setLatency(60);
    try {
      const term = onTerminal(['ingest', '--db', tmp.file('interrupted.duckdb'), '--base-url', sandbox.baseUrl,
        '--tariff', 'E-1R-AGILE-18-02-21-J', '--from', '2018-01-01', '--no-products'], 120);
      await term.waitFor(/ingest \[.*records/);
      term.type('\u0003');
      expect(await term.closed).toBe(130);
      const notices = frames(term.screen()).filter((f) => f.includes('SIGINT received'));
      expect(notices).toEqual(['tariffs: SIGINT received: finishing the current write, then stopping (again to force)']);
      // and the terminal, as shown, has it whole on a line
      expect(term.shown()).toContain('tariffs: SIGINT received: finishing the current write, then stopping (again to force)');
    } finally {
      sandbox.setLatency(0);
    }
  }, 120_000);
});

describe('export on a terminal', () => {
  for (const cols of [60, 120]) {
    it(`shows a bar of its reports and series at ${cols} columns, then the files`, async () => {
      const out = tmp.file(`out-${cols}`);
      const term = onTerminal(['export', '--db', db, '--out', out, '--format', 'csv,html'], cols);
      expect(await term.closed).toBe(0);
      const bars = frames(term.screen()).filter((f) => /^export /.test(f));
      expect(bars.length).toBeGreaterThan(0);
      for (const bar of bars) {
        expect(bar.length, bar).toBeLessThan(cols);
        expect(bar).toMatch(/^export \[[\u2588\u2591]+\] \d+%( \| \d+\/\d+ steps)?/);
      }
      // 8 reports (no consumption here, so no cost reports) and a step per price series
      const totals = bars.flatMap((b) => /\d+\/(\d+) steps/.exec(b)?.[1] ?? []).map(Number);
      expect(Math.max(...totals)).toBeGreaterThanOrEqual(8 + FIXTURE_TARIFFS.length);
      // the bar only moves forward: every step is counted before the first is done
      const percents = bars.map((b) => Number(/\] (\d+)%/.exec(b)![1]));
      percents.forEach((p, i) => expect(p, `${percents.join(' ')}`).toBeGreaterThanOrEqual(percents[i - 1] ?? 0));
      expect(percents.at(-1), 'the steps counted are the steps done').toBe(100);
      expect(visible(term.screen())).toContain(`${out}/report.html`);
    }, 120_000);
  }

  it('piped: no bar, only the files as JSON', async () => {
    const piped = await runCli(['export', '--db', db, '--out', tmp.file('piped'), '--format', 'csv']);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toMatch(/steps|\u2588/);
    expect(JSON.parse(piped.stdout).length).toBe(8);
  });
});

describe('schedule on a terminal', () => {
  it('says when it starts, once per run, and goodbye on Ctrl-C', async () => {
    const config = writeConfig(tmp.file('every-2s.json'), {
      db: tmp.file('scheduled.duckdb'), base_url: sandbox.baseUrl,
      schedules: { products: '*/2 * * * * *', rates: 'off', day_ahead: 'off', reports: 'off' },
    });
    const term = onTerminal(['schedule', '--config', config], 100);
    await term.waitFor(/tariffs schedule: 1 job on .*scheduled\.duckdb; next \(Europe\/London\): products \d\d:\d\d(:\d\d)?/);
    await term.waitFor(/\] products ok in \d+\.\d s; next \d\d:\d\d(:\d\d)?/);
    term.type('\u0003');
    await term.waitFor(/tariffs schedule: stopped \(.*\)\. Goodbye\./, 30_000);
    expect(await term.closed).toBe(0);
    // its own lines fit the terminal (wrapped at spaces); log lines are pino-pretty's
    const own = term.shown().filter((l) => !/^\[[\d:]+\] (WARN|ERROR|INFO)/.test(l));
    for (const line of own) expect(line.length, line).toBeLessThanOrEqual(100);
  }, 120_000);
});
