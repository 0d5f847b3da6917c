// The CLI shell itself: --help lists commands and exits 0; unknown input is a usage error (exit 2).
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/runCli.js';

describe('tariffs CLI shell', () => {
  it('prints help and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: tariffs');
  });

  it('exits 2 on an unknown command', async () => {
    const result = await runCli(['no-such-command']);
    expect(result.code).toBe(2);
  });
});
