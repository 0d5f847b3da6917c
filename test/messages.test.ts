// Messages in the user's words, each through the built CLI with its exit status: dates echoed as
// typed, one exit status (2) for --from after --to whatever the command, network failures that
// name the host and the cause, an unknown account, a meter without its serial, a missing
// --weights-from file. The export's --out has its own file (export-out-directory.test.ts).
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY } from '../src/sandbox/sandboxCredentials.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { runCli, runCliCases, type CliResult } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-messages-');
const db = tmp.file('demo.duckdb');
const J = 'E-1R-AGILE-18-02-21-J'; // prices to 2024-05-14 21:30Z in the demo
const METER = '2000000000011'; // consumption 2023-03-01 to 2024-02-29
let sandbox: Sandbox;

beforeAll(async () => {
  await copyOfDemoWarehouse(db);
  sandbox = await startSandbox({});
}, 900_000);
afterAll(async () => {
  await sandbox?.close();
  tmp.remove();
});

/** The one line a failure prints (usage errors add `Run with --help for usage.`). */
function firstLine(result: CliResult): string {
  return result.stderr.split('\n').filter((l) => l.startsWith('tariffs: ')).at(-1) ?? result.stderr;
}

/** A port on 127.0.0.1 with nothing listening: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('--from after --to', () => {
  it('every command exits 2 and echoes the dates as typed, not as UTC instants', async () => {
    const dates = ['--from', '2024-02-14', '--to', '2024-02-10'];
    const results = await runCliCases({
      daily: ['daily', '--db', db, '--tariff', J],
      cheapest: ['cheapest', '--db', db, '--tariff', J, '--duration', '2h'],
      slots: ['slots', '--db', db, '--tariff', J, '--count', '3'],
      negative: ['negative', '--db', db, '--tariff', J],
      cost: ['cost', '--db', db, '--meter', METER],
      compare: ['compare', '--db', db, '--meter', METER, '--tariff', J],
      export: ['export', '--db', db, '--out', tmp.file('never')],
      ingest: ['ingest', '--db', tmp.file('never.duckdb'), '--tariff', J, '--base-url', sandbox.baseUrl],
    }, dates);
    for (const [name, result] of Object.entries(results)) {
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(firstLine(result), name).toMatch(/^tariffs: --from must be before --to \(the (range|window) is half-open: \[from, to\)\), got --from 2024-02-14 and --to 2024-02-10$/);
      expect(result.stderr, name).not.toContain('T00:00:00Z');
      expect(result.stdout, name).toBe('');
    }
  });

  it('typed in different forms: each with its UTC instant in parentheses', async () => {
    const result = await runCli(['daily', '--db', db, '--tariff', J, '--from', '2024-05-14', '--to', '2024-05-13T12:00Z']);
    expect(result.code).toBe(2);
    expect(firstLine(result)).toBe('tariffs: --from must be before --to (the range is half-open: [from, to)), ' +
      'got --from 2024-05-14 (2024-05-13T23:00:00Z) and --to 2024-05-13T12:00Z');
  });
});

describe('the partial-price warning', () => {
  it('names the range as typed, UTC in parentheses; the answer is still given (exit 0)', async () => {
    const result = await runCli(['cheapest', '--db', db, '--tariff', J, '--duration', '2h', '--from', '2024-05-14', '--to', '2024-05-16', '--format', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(`tariffs: warning: ${J} has no price for 50 of the 96 half-hours in [2024-05-14, 2024-05-16) ` +
      '(UTC [2024-05-13T23:00:00Z, 2024-05-15T23:00:00Z)); the answer uses the priced ones\n');
  });
});

describe('flags', () => {
  it('--meter 123: the serial is optional, so the message offers both forms (exit 2)', async () => {
    const result = await runCli(['cost', '--db', db, '--meter', '123']);
    expect(result.code).toBe(2);
    expect(firstLine(result)).toBe("tariffs: --meter: '123' is not MPAN or MPAN:SERIAL (e.g. 1200012345678 or 1200012345678:21L1234567; " +
      'gas: MPRN[:SERIAL]): a meter point is 4 to 20 letters or digits, a serial up to 40');
  });

  it('a missing --weights-from file is named, without advice about the warehouse\'s disk (exit 2)', async () => {
    const missing = tmp.file('no-such-weights.csv');
    const result = await runCli(['cheapest', '--db', db, '--tariff', J, '--duration', '2h', '--from', '2024-05-01', '--to', '2024-05-03', '--weights-from', missing]);
    expect(result.code).toBe(2);
    expect(firstLine(result)).toBe(`tariffs: --weights-from: no file ${missing}`);
    expect(result.stderr).not.toMatch(/Check the disk|permissions/);
  });
});

describe('the network', () => {
  const ingest = (baseUrl: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) => runCli(
    ['ingest', '--db', tmp.file(`net-${Math.random().toString(36).slice(2)}.duckdb`), '--base-url', baseUrl, ...extra], { env },
  );

  it('a stopped server: connection refused, naming the host and port, after the attempts (exit 1)', async () => {
    const port = await closedPort();
    const result = await ingest(`http://127.0.0.1:${port}`, ['--tariff', J]);
    expect(result.code).toBe(1);
    expect(firstLine(result)).toBe(`tariffs: GET /v1/products/?page_size=1500: connection refused by 127.0.0.1:${port} ` +
      '(nothing listening there?) after 6 attempts (attempt limit)');
  }, 120_000);

  it('a name that does not resolve: DNS, naming the host (exit 1)', async () => {
    const result = await ingest('https://api.tariffs-test.invalid', ['--tariff', J]);
    expect(result.code).toBe(1);
    // no resolver at all answers "could not be looked up" (EAI_AGAIN, retried); one that answers, "not found"
    expect(firstLine(result)).toMatch(/^tariffs: GET \/v1\/products\/\?page_size=1500: host api\.tariffs-test\.invalid (not found \(DNS: no such name\)|could not be looked up \(DNS did not answer\) after \d+ attempts)/);
  }, 120_000);

  it('https to a server speaking plain http: TLS, naming the host (exit 1)', async () => {
    const port = new URL(sandbox.baseUrl).port;
    const result = await ingest(`https://127.0.0.1:${port}`, ['--tariff', J]);
    expect(result.code).toBe(1);
    expect(firstLine(result)).toBe(`tariffs: GET /v1/products/?page_size=1500: TLS with 127.0.0.1:${port} failed: wrong version number ` +
      '(does it speak https?) (ERR_SSL_WRONG_VERSION_NUMBER)');
  });

  it('an unknown account: not found for the key, not a bare HTTP 404; the key never shown (exit 1)', async () => {
    const result = await ingest(sandbox.baseUrl, ['--account', 'A-00000000', '--no-products'], { TARIFFS_API_KEY: SANDBOX_API_KEY });
    expect(result.code).toBe(1);
    expect(firstLine(result)).toBe('tariffs: GET /v1/accounts/A-00000000/: HTTP 404: account A-00000000 not found for this API key ' +
      "(check the account number, A-XXXXXXXX, and that the key is that account's)");
    expect(result.stderr + result.stdout).not.toContain(SANDBOX_API_KEY);
    expect(SANDBOX_ACCOUNT).not.toBe('A-00000000');
  });
});
