// The event_agreements view over a small lifecycle (test/fixtures/events/agreements.jsonl):
// created → updated → terminated (the file has the last two out of order), a rollover, a
// join-supplier agreement with two agreements, equal occurred_at, and an event without one.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvents } from '../src/events/loadEvents.js';
import { Warehouse } from '../src/store/Warehouse.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/events/agreements.jsonl', import.meta.url));

let dir: string;
let warehouse: Warehouse;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tariffs-event-agreements-'));
  warehouse = await Warehouse.open(join(dir, 'w.duckdb'));
  const { summary } = await loadEvents(warehouse, createReadStream(FIXTURE), { source: FIXTURE });
  expect(summary).toMatchObject({ accepted: 11, rejected: 0 });
});
afterAll(async () => {
  warehouse?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('event_agreements', () => {
  it('gives one row per agreement with its latest fields and status', async () => {
    const rows = await warehouse.all('SELECT * FROM event_agreements ORDER BY agreement_id');
    expect(rows).toEqual([
      // created (v1, with the account) → updated v1 (no account: kept) → terminated v2 (10:00+01:00);
      // the file has terminated before updated: occurred_at decides, not the line.
      {
        account_number: 'A-100', agreement_id: 101, product_code: 'AGILE-24-10-01',
        valid_from: '2024-01-01T00:00:00Z', valid_to: null,
        status: 'terminated', status_event_id: 'agreement.terminated-v2', status_at: '2024-03-01T09:00:00Z', events: 3,
      },
      // The expiring agreement of a rollover.
      {
        account_number: 'A-200', agreement_id: 201, product_code: 'VAR-22-11-01',
        valid_from: '2023-01-01T00:00:00Z', valid_to: null,
        status: 'rolled_over', status_event_id: 'agreement.rollover.completed-v1', status_at: '2023-12-31T12:00:00Z', events: 2,
      },
      // The agreement rolled on to: new_product.code and its validity, then updated (v2).
      {
        account_number: 'A-200', agreement_id: 202, product_code: 'FIX-12M-24-01-01',
        valid_from: '2024-01-01T00:00:00Z', valid_to: '2025-01-01T00:00:00Z',
        status: 'updated', status_event_id: 'agreement.updated-v2', status_at: '2024-06-01T08:00:00Z', events: 2,
      },
      // Join-supplier agreements[0]; updated and revoked at the same instant: the later line wins.
      {
        account_number: 'A-300', agreement_id: 301, product_code: 'AGILE-24-10-01',
        valid_from: '2024-05-01T00:00:00+01:00', valid_to: '2025-05-01T00:00:00+01:00',
        status: 'revoked', status_event_id: 'agreement.revoked-v1', status_at: '2024-07-01T00:00:00Z', events: 3,
      },
      // agreements[1]; its revocation has no occurred_at, so it counts as the oldest event.
      {
        account_number: 'A-300', agreement_id: 302, product_code: 'VAR-22-11-01',
        valid_from: '2024-05-01T00:00:00+01:00', valid_to: '2025-05-01T00:00:00+01:00',
        status: 'created', status_event_id: 'lifecycle.join-supplier.agreement.created-v1', status_at: '2024-05-01T00:00:00Z', events: 2,
      },
    ]);
  });

  it('data test: one row per agreement, and every agreement event is in the history (zero rows)', async () => {
    expect(await warehouse.all('SELECT agreement_id FROM event_agreements GROUP BY agreement_id HAVING count(*) > 1')).toEqual([]);
    // Every agreement event appears in event_agreement_history (the join-supplier one once per agreement).
    expect(
      await warehouse.all(`SELECT e.id FROM events AS e
        WHERE (e.event_type LIKE 'agreement.%' OR e.event_type = 'lifecycle.join-supplier.agreement.created')
          AND NOT EXISTS (SELECT 1 FROM event_agreement_history AS h WHERE h.source = e.source AND h.line = e.line)`),
    ).toEqual([]);
  });

  it('joins to products on product code (the README query)', async () => {
    await warehouse.run(`INSERT INTO products (code, display_name, brand, first_seen_at, last_seen_at) VALUES
      ('AGILE-24-10-01', 'Agile Octopus', 'OCTOPUS_ENERGY', now(), now()),
      ('VAR-22-11-01', 'Flexible Octopus', 'OCTOPUS_ENERGY', now(), now())`);
    const rows = await warehouse.all(`
      SELECT a.account_number, a.agreement_id, a.product_code, p.display_name,
             a.valid_from, a.valid_to, a.status, a.status_at
      FROM event_agreements AS a
      LEFT JOIN products AS p ON p.code = a.product_code
      WHERE a.status NOT IN ('terminated', 'revoked', 'rolled_over')
      ORDER BY a.account_number, a.agreement_id`);
    expect(rows.map((r) => [r.account_number, r.agreement_id, r.product_code, r.display_name, r.status])).toEqual([
      ['A-200', 202, 'FIX-12M-24-01-01', null, 'updated'],
      ['A-300', 302, 'VAR-22-11-01', 'Flexible Octopus', 'created'],
    ]);
  });
});
