// A small real warehouse for the export tests, ingested from the sandbox: Agile J over
// 2023-06-25 … 2023-11-05 (a 17-slot negative run on 2023-07-02, the 50-half-hour 2023-10-29) and
// the 2025/2026 Agile extracts G, H, N (46-half-hour days, negative prices).
import type { Sandbox } from '../../src/sandbox/startSandbox.js';
import { ingest } from './warehouseTools.js';

export const FIXTURE_TARIFFS = [
  'E-1R-AGILE-18-02-21-J',
  'E-1R-AGILE-24-10-01-G',
  'E-1R-AGILE-24-10-01-H',
  'E-1R-AGILE-24-10-01-N',
] as const;

export async function buildExportFixture(db: string, sandbox: Sandbox): Promise<void> {
  const j = await ingest(db, sandbox.baseUrl, {
    tariffs: ['E-1R-AGILE-18-02-21-J'], from: new Date('2023-06-25T00:00:00+01:00'), to: new Date('2023-11-06T00:00:00Z'),
  });
  const recent = await ingest(db, sandbox.baseUrl, {
    tariffs: ['E-1R-AGILE-24-10-01-G', 'E-1R-AGILE-24-10-01-H', 'E-1R-AGILE-24-10-01-N'], from: new Date('2025-01-01T00:00:00Z'),
    noProducts: true,
  });
  if (j.status !== 'ok' || recent.status !== 'ok') throw new Error(`fixture ingest failed: ${[...j.errors, ...recent.errors].join('; ')}`);
}
