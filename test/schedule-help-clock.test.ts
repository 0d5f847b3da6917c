// `schedule --help` says what the daemon does across the clock changes, and --list (croner's own
// next-run rule, the daemon's) does what it says: a fixed time in 01:00-01:59 fires once on both
// days, at 02:00 BST in spring and at its first (BST) occurrence in autumn; a schedule with
// several times in that hour skips the missing ones in spring and fires at both in autumn.
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/runCli.js';
import { writeConfig } from './helpers/schedulerProcess.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-schedule-help-');
afterAll(() => tmp.remove());

interface Listed { job: string; next: { at: string; local: string }[] }

async function listed(now: string, day: string): Promise<Record<string, string[]>> {
  const config = writeConfig(tmp.file(`c-${day}.json`), { schedules: { products: '30 1 * * *', reports: '0,30 1 * * *' } });
  const result = await runCli(['schedule', '--list', '--config', config, '--now', now, '--hours', '36', '--format', 'json']);
  expect(result.code, result.stderr).toBe(0);
  const jobs = JSON.parse(result.stdout) as Listed[];
  return Object.fromEntries(jobs.map((j) => [j.job, j.next.map((n) => n.local).filter((l) => l.startsWith(day))]));
}

describe('schedule --help and --list across the clock changes', () => {
  it('--help states the rule --list follows, on the spring-forward and the fall-back day', async () => {
    const help = await runCli(['schedule', '--help'], { env: { COLUMNS: '100' } });
    expect(help.code).toBe(0);
    const said = help.stdout.replace(/\s+/g, ' ');
    expect(said).toContain('a job at one fixed time between 01:00 and 01:59 (30 1 * * *) fires once on both days: ' +
      'at 02:00 BST on the spring-forward day (01:30 does not exist), and at the first (BST) occurrence of 01:30 on the fall-back day.');
    expect(said).toContain('A schedule with several times in that hour (*/30 * * * *, 0,30 1 * * *) skips those that do not exist in ' +
      'spring and fires at both occurrences in autumn. --list shows exactly this.');
    expect(said).not.toContain('second (GMT)');

    const spring = await listed('2026-03-28T12:00:00Z', '2026-03-29');
    expect(spring.products).toEqual(['2026-03-29T02:00:00+01:00']); // "at 02:00 BST", once
    expect(spring.reports).toEqual([]); // 01:00 and 01:30 do not exist: skipped
    const autumn = await listed('2026-10-24T12:00:00Z', '2026-10-25');
    expect(autumn.products).toEqual(['2026-10-25T01:30:00+01:00']); // "the first (BST) occurrence", once
    expect(autumn.reports).toEqual([ // "both occurrences"
      '2026-10-25T01:00:00+01:00', '2026-10-25T01:30:00+01:00', '2026-10-25T01:00:00+00:00', '2026-10-25T01:30:00+00:00',
    ]);
  });
});
