// What a rates run did for each tariff: counts written, pages fetched, and the first failure. A
// required kind that fails stops its tariff; a failed optional resource (standing charges) is a
// warning that costs the tariff nothing (src/ingest/optionalResources.ts), unless it is the file
// or the disk that failed.
import type { Logger } from 'pino';
import { StorageError } from '../store/StorageError.js';
import type { RateKind, WriteCounts } from '../store/writeRates.js';
import {
  missingFrom, optionalResourceOf, resourceKey, warnMissing, type MissingResource,
} from './optionalResources.js';
import type { IngestTarget } from './resolveTargets.js';

export interface TariffOutcome extends WriteCounts {
  tariffCode: string;
  ok: boolean;
  error?: string;
  errorCode?: string;
  /** HTTP status and rate kind of the failure, when an answer said why (404: no such tariff). */
  errorStatus?: number;
  errorKind?: RateKind;
  pages: number;
  /** Optional resources this run could not get for the tariff. */
  missing: MissingResource[];
  /** Required rate kinds whose window came back empty (`count: 0`). */
  empty: RateKind[];
}

type StreamRef = { target: IngestTarget; kind: RateKind };

export class TariffOutcomes {
  private readonly byTariff: Map<string, TariffOutcome>;
  private readonly failed = new Set<string>();
  /** Optional streams given up on (tariff|resource): the tariff's other streams carry on. */
  private readonly skipped = new Set<string>();

  constructor(targets: IngestTarget[], private readonly logger: Logger, private readonly signal: AbortSignal | undefined) {
    this.byTariff = new Map(targets.map((t) => [t.tariffCode, {
      tariffCode: t.tariffCode, ok: true, inserted: 0, updated: 0, unchanged: 0, pages: 0, missing: [], empty: [],
    }]));
  }

  of(target: IngestTarget): TariffOutcome {
    return this.byTariff.get(target.tariffCode)!;
  }

  all(): TariffOutcome[] {
    return [...this.byTariff.values()];
  }

  /** Whether a stream is given up: the run stopped, its tariff failed, or (optional) it did. */
  stopped({ target, kind }: StreamRef): boolean {
    const optional = optionalResourceOf(kind);
    return this.failed.has(target.tariffCode) || this.signal?.aborted === true
      || (optional !== undefined && this.skipped.has(resourceKey(target.tariffCode, optional)));
  }

  written({ target }: StreamRef, counts: WriteCounts): void {
    const outcome = this.of(target);
    outcome.inserted += counts.inserted;
    outcome.updated += counts.updated;
    outcome.unchanged += counts.unchanged;
  }

  /** A stream failed (its fetching or a write of it); logged once a tariff or resource. */
  fail({ target, kind }: StreamRef, error: unknown): void {
    const outcome = this.of(target);
    // a file or disk that fails is the tariff's failure (the run's), never a resource's absence
    const optional = error instanceof StorageError ? undefined : optionalResourceOf(kind);
    if (optional !== undefined) {
      const key = resourceKey(target.tariffCode, optional);
      if (this.skipped.has(key)) return;
      this.skipped.add(key);
      const missing = missingFrom(target.tariffCode, optional, error);
      outcome.missing.push(missing);
      warnMissing(this.logger, missing, error);
      return;
    }
    if (!this.failed.has(target.tariffCode)) {
      this.logger.error({ tariff: target.tariffCode, kind, err: summarise(error) }, 'tariff failed');
    }
    this.failed.add(target.tariffCode);
    outcome.ok = false;
    outcome.error ??= `${target.tariffCode}: ${(error as Error).message}`;
    outcome.errorCode ??= (error as { code?: string }).code;
    outcome.errorStatus ??= (error as { status?: number }).status;
    outcome.errorKind ??= kind;
  }
}

function summarise(error: unknown): { code?: string; message: string } {
  return { code: (error as { code?: string }).code, message: (error as Error).message ?? String(error) };
}
