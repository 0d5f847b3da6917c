// Power Up / Power Down events as they were seen (sql/migrations/015_flexibility_events.sql):
// upserts keyed by source, account, meter point, code and start/end, so that writing the same
// answer twice changes nothing but last_seen_at. An earlier version that this answer no longer
// lists is superseded (kept, with superseded_at) when the answer lists its code at other times
// or it has not ended yet; one that comes back is current again.
import type { FlexEvent, FlexKind } from '../api/FlexibilityClient.js';
import type { Warehouse } from './Warehouse.js';
import { valuesList } from './valuesList.js';

export interface FlexibilityWrite {
  inserted: number;
  superseded: number;
}

/** Stores one answer (one source for one account and meter point; '' account-wide). */
export async function writeFlexibilityEvents(
  warehouse: Warehouse, answer: { source: string; kind: FlexKind; accountNumber: string; meterPoint: string },
  events: readonly FlexEvent[], now: Date, runId: number,
): Promise<FlexibilityWrite> {
  const params = {
    source: answer.source, kind: answer.kind, account: answer.accountNumber, mp: answer.meterPoint, now: now.toISOString(), run: runId,
  };
  const scope = 'source = $source AND account_number = $account AND meter_point = $mp';
  return warehouse.transaction(async () => {
    const before = await countOf(warehouse, scope, params);
    // one row per code and start/end: an answer listing one twice keeps the last
    const unique = new Map(events.map((e) => [`${e.code}|${e.start}|${e.end}`, e]));
    if (unique.size > 0) {
      const values = valuesList(
        [...unique.values()].map((e) => [e.code, new Date(e.start).toISOString(), new Date(e.end).toISOString(), e.name, e.eventType,
          e.regions.length > 0 ? e.regions.join(',') : null, e.joined, e.reward]),
        ['$source', '$kind', '$account', '$mp', '?', 'CAST(? AS TIMESTAMPTZ)', 'CAST(? AS TIMESTAMPTZ)', '?', '?', '?',
          'CAST(? AS BOOLEAN)', 'CAST(? AS DOUBLE)', 'CAST($now AS TIMESTAMPTZ)', 'CAST($now AS TIMESTAMPTZ)',
          'CAST(NULL AS TIMESTAMPTZ)', '$run', '$run'],
      );
      await warehouse.run(`INSERT INTO flexibility_events VALUES ${values.sql}
        ON CONFLICT (source, account_number, meter_point, event_code, start_at, end_at) DO UPDATE SET
          kind = excluded.kind, name = excluded.name, event_type = excluded.event_type, region = excluded.region,
          joined = excluded.joined, reward_octopoints = excluded.reward_octopoints, last_seen_at = excluded.last_seen_at,
          superseded_at = NULL, run_id = excluded.run_id`,
      { ...values.params, ...params });
    }
    const codes = JSON.stringify([...new Set([...unique.values()].map((e) => e.code))]);
    // not in this answer (its rows now carry this run's id): moved (its code listed at other
    // times) or, not ended yet, withdrawn
    const stale = `${scope} AND superseded_at IS NULL AND run_id <> $run
      AND (list_contains(CAST($codes AS VARCHAR[]), event_code) OR end_at > CAST($now AS TIMESTAMPTZ))`;
    const row = await warehouse.one(`SELECT count(*)::INTEGER AS n FROM flexibility_events WHERE ${stale}`, { ...params, codes });
    const superseded = Number(row?.n ?? 0);
    if (superseded > 0) {
      await warehouse.run(`UPDATE flexibility_events SET superseded_at = CAST($now AS TIMESTAMPTZ), run_id = $run WHERE ${stale}`,
        { ...params, codes });
    }
    const after = await countOf(warehouse, scope, params);
    return { inserted: after - before, superseded };
  });
}

async function countOf(warehouse: Warehouse, scope: string, params: Record<string, string | number>): Promise<number> {
  const row = await warehouse.one(`SELECT count(*)::INTEGER AS n FROM flexibility_events WHERE ${scope}`, params);
  return Number(row?.n ?? 0);
}
