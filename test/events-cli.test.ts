// `tariffs events catalog`, run in-process through commander: every event id once, with its fields.
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure } from '../src/cli/commands/events.js';
import { COMMANDS } from '../src/cli/commands/index.js';

async function run(args: string[]): Promise<{ stdout: string; stderr: string; code: number | undefined }> {
  const program = new Command().exitOverride();
  configure(program.command('events'));
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const before = process.exitCode;
  try {
    await program.parseAsync(args, { from: 'user' });
    return { stdout, stderr, code: process.exitCode as number | undefined };
  } finally {
    vi.restoreAllMocks();
    process.exitCode = before;
  }
}

afterEach(() => vi.restoreAllMocks());

describe('tariffs events catalog', () => {
  it('is registered with the CLI', async () => {
    const entry = COMMANDS.find((c) => c.name === 'events');
    expect((await entry!.load()).configure).toBe(configure);
  });

  it('lists every event id once in JSON, structures expanded', async () => {
    const { stdout, code } = await run(['events', 'catalog', '--format', 'json']);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as { id: string; fields: { name: string; type: string; required: boolean; fields?: unknown[] }[] }[];
    expect(rows).toHaveLength(273);
    expect(new Set(rows.map((r) => r.id)).size).toBe(273);
    const psr = rows.find((r) => r.id === 'account_user.psr_records_updated-v1');
    expect(psr?.fields[1]).toEqual({
      name: 'created_records',
      type: '[PsrRecord]',
      required: true,
      fields: [
        { name: 'description', type: 's', required: true },
        { name: 'electricity_industry_code', type: 's', required: true },
        { name: 'gas_industry_code', type: 's', required: true },
      ],
    });
    expect(rows.find((r) => r.id === 'lifecycle.support-site.sale-1.0.0')).toMatchObject({ payload_version: '1.0.0', catalog: 'B' });
  });

  it('prints a table with one row per id and the fields in catalog notation', async () => {
    const { stdout } = await run(['events', 'catalog', '--format', 'table']);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id +catalog +fields$/);
    expect(lines.at(-1)).toBe('273 rows');
    expect(lines).toContainEqual(expect.stringMatching(/^account\.created-v1 +A +account_number\*s, account_user_emails\*\[s\], is_imported b$/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^meterpoint\.gas\.disputed_opening_reading\.accepted\.other_supplier-v1 +B +mprn\*s, supplier\*s, reference_number\*i, \.\.\.$/),
    );
  });

  it('refuses an unknown format as a usage error (exit 2)', async () => {
    const { code, stderr, stdout } = await run(['events', 'catalog', '--format', 'xml']);
    expect(code).toBe(2);
    expect(stderr).toContain("--format: 'xml' is not one of table, csv, json");
    expect(stdout).toBe('');
  });
});
