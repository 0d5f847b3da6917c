// A meter is priced only at tariffs of its fuel and direction (issue 26, item 3), on the sandbox
// household (test/helpers/household.ts): `cost`/`compare` refuse with exit 2 naming both sides, the
// cost macros refuse an analyst's own call, and the export compares each meter with what fits.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSEHOLD } from '../src/sandbox/loadSandboxData.js';
import { runCli } from './helpers/runCli.js';
import {
  IMPORT, AGILE, VAR, readings, json, query, state, setUpHousehold, tearDownHousehold,
} from './helpers/household.js';

beforeAll(setUpHousehold, 120_000);
afterAll(tearDownHousehold);

describe('a tariff of another fuel or direction is refused, never priced (item 3)', () => {
  it('cost, compare and the SQL macros refuse; exit 2 names the meter and the tariff with their fuel and direction', async () => {
    const gasCsv = join(state.dir, 'gas.csv');
    writeFileSync(gasCsv, ['interval_start,kwh', ...[...readings.keys()].slice(0, 96).map((ms) => `${new Date(ms).toISOString()},1.5`)].join('\n') + '\n');
    const exportCsv = join(state.dir, 'export.csv');
    writeFileSync(exportCsv, ['interval_start,kwh', ...[...readings.keys()].slice(0, 96).map((ms) => `${new Date(ms).toISOString()},0.5`)].join('\n') + '\n');
    for (const [file, meter, extra] of [[gasCsv, `${HOUSEHOLD.gasMprn}:${HOUSEHOLD.gasSerial}`, ['--gas']], [exportCsv, `${HOUSEHOLD.exportMpan}:${HOUSEHOLD.electricitySerial}`, ['--export']]] as const) {
      const imported = await runCli(['consumption', 'import', file, '--meter', meter, ...extra, '--db', state.db]);
      expect(imported.code, imported.stderr).toBe(0);
    }
    const range = ['--from', '2023-08-28', '--to', '2023-08-30', '--db', state.db];
    const OUTGOING = HOUSEHOLD.exportTariff;
    const [gasCompare, gasCost, importAtExport, exportAtImport, swapped, sql] = await Promise.all([
      runCli(['compare', '--meter', HOUSEHOLD.gasMprn, '--tariff', AGILE, ...range]),
      runCli(['cost', '--meter', HOUSEHOLD.gasMprn, '--tariff', AGILE, '--per', 'month', ...range]),
      runCli(['cost', '--meter', IMPORT, '--tariff', OUTGOING, ...range]),
      runCli(['compare', '--meter', `${HOUSEHOLD.exportMpan}:${HOUSEHOLD.electricitySerial}`, '--tariff', AGILE, ...range]),
      runCli(['cost', '--meter', HOUSEHOLD.exportMpan, '--export-meter', IMPORT, ...range]),
      runCli(['sql', '--db', state.db, `SELECT * FROM tariff_comparison('${HOUSEHOLD.gasMprn}', ['${AGILE}'], TIMESTAMPTZ '2023-08-28', TIMESTAMPTZ '2023-08-30')`]),
    ]);
    const refused = (run: typeof gasCompare, why: string) => {
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toContain(why);
    };
    refused(gasCompare, `--tariff: meter ${HOUSEHOLD.gasMprn} is a gas import meter; tariff ${AGILE} is an electricity import tariff`);
    refused(gasCost, `meter ${HOUSEHOLD.gasMprn} is a gas import meter; tariff ${AGILE} is an electricity import tariff`);
    refused(importAtExport, `meter ${IMPORT} is an electricity import meter; tariff ${OUTGOING} is an electricity export tariff`);
    refused(exportAtImport, `meter ${HOUSEHOLD.exportMpan} is an electricity export meter; tariff ${AGILE} is an electricity import tariff`);
    refused(swapped, `--meter: meter ${HOUSEHOLD.exportMpan} is an export meter`);
    // an analyst's own call is refused by the macro itself (a failed query: exit 1), never priced
    expect([sql.code, sql.stdout]).toEqual([1, '']);
    expect(sql.stderr).toContain(`meter ${HOUSEHOLD.gasMprn} is a gas import meter; tariff ${AGILE} is an electricity import tariff`);
    // what fits is still answered: the gas meter at its agreement, the export meter at its export tariff
    const [gasActual, exportActual] = await Promise.all([
      runCli(['cost', '--meter', HOUSEHOLD.gasMprn, ...range, '--format', 'json']),
      runCli(['compare', '--meter', HOUSEHOLD.exportMpan, '--tariff', OUTGOING, ...range, '--format', 'json']),
    ]);
    expect(gasActual.code, gasActual.stderr).toBe(0);
    expect(json(gasActual.stdout).map((r) => r.tariff_code)).toEqual([HOUSEHOLD.gasTariff, HOUSEHOLD.gasTariff]);
    expect(exportActual.code, exportActual.stderr).toBe(0);
    expect(json(exportActual.stdout).map((r) => r.scenario)).toEqual(['actual', OUTGOING]);
  }, 60_000);

  it('the export reports compare each meter only with tariffs of its fuel and direction', async () => {
    const out = join(state.dir, 'reports');
    const exported = await runCli(['export', '--out', out, '--format', 'csv', '--from', '2023-08-28', '--to', '2023-08-30', '--db', state.db]);
    expect(exported.code, exported.stderr).toBe(0);
    for (const file of ['tariff_comparison.csv', 'monthly_costs.csv']) {
      const [header, ...lines] = readFileSync(join(out, file), 'utf8').trim().split('\n');
      const col = header!.split(',').indexOf('scenario');
      const mp = header!.split(',').indexOf('meter_point');
      const scenarios = (meter: string) => [...new Set(lines.map((l) => l.split(',')).filter((c) => c[mp] === meter).map((c) => c[col]))].sort();
      // each meter's own agreement tariff is compared too
      expect(scenarios(HOUSEHOLD.gasMprn), file).toEqual([HOUSEHOLD.gasTariff, 'actual']);
      expect(scenarios(HOUSEHOLD.exportMpan), file).toEqual([HOUSEHOLD.exportTariff, 'actual']);
      expect(scenarios(IMPORT), file).toEqual([AGILE, VAR, 'actual'].sort());
    }
  }, 60_000);
});
