// Validates one event: the envelope `{id?, event_type, payload_version, occurred_at?, payload}`,
// then the payload against the catalog entry `<event_type>-<payload_version>`. Every problem of
// the event is reported, not just the first.
import { z } from 'zod';
import { describeType, eventId, type EventCatalog, type EventSpec } from './EventCatalog.js';
import { describeValue, toEventErrors, type EventError } from './EventError.js';
import { loadEventCatalog } from './loadEventCatalog.js';
import { payloadSchema, typeAt } from './payloadSchema.js';

export interface ValidEvent {
  /** `<event_type>-<payload_version>`: the catalog entry the payload was checked against. */
  event_id: string;
  event_type: string;
  payload_version: string;
  id: string | null;
  /** As written (ISO 8601 with a zone); null when the line has none. */
  occurred_at: string | null;
  /** The payload with every field it came with, catalog-listed or not. */
  payload: Record<string, unknown>;
}

export type EventResult = { ok: true; event: ValidEvent } | { ok: false; errors: EventError[] };

// Unknown top-level fields are tolerated (they stay in the raw line). id and occurred_at may be
// absent but not null, as for payload fields.
const envelopeSchema = z.looseObject({
  id: z.string().optional(),
  event_type: z.string(),
  payload_version: z.string(),
  occurred_at: z.iso.datetime({ offset: true }).optional(),
  payload: z.looseObject({}),
});

/** One line of JSON Lines (without its line break). */
export function validateEventText(text: string, catalog: EventCatalog = loadEventCatalog()): EventResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, errors: [{ detail: `not JSON: ${reason}`, code: 'invalid_json', attr: null, scope: 'line' }] };
  }
  return validateEvent(value, catalog);
}

export function validateEvent(value: unknown, catalog: EventCatalog = loadEventCatalog()): EventResult {
  if (!isObject(value)) {
    const detail = `expected a JSON object, got ${describeValue(value)}`;
    return { ok: false, errors: [{ detail, code: 'not_an_object', attr: null, scope: 'line' }] };
  }
  const errors: EventError[] = [];
  const envelope = envelopeSchema.safeParse(value, { reportInput: true });
  if (!envelope.success) errors.push(...toEventErrors(envelope.error.issues, 'envelope'));

  const { event_type: eventType, payload_version: version, payload } = value;
  let spec: EventSpec | undefined;
  if (typeof eventType === 'string') {
    const versions = catalog.versions.get(eventType);
    if (!versions) {
      errors.push({
        detail: `'${eventType}' is not an event type of the catalogs`,
        code: 'unknown_event_type',
        attr: 'event_type',
        scope: 'envelope',
      });
    } else if (typeof version === 'string') {
      spec = catalog.events.get(eventId(eventType, version));
      if (!spec) {
        errors.push({
          detail: `${eventType} has no payload version '${version}' (catalog: ${versions.join(', ')})`,
          code: 'unknown_payload_version',
          attr: 'payload_version',
          scope: 'envelope',
        });
      }
    }
  }

  let checked: Record<string, unknown> | undefined;
  if (spec && isObject(payload)) {
    const fields = spec.fields;
    const result = payloadSchema(spec).safeParse(payload, { reportInput: true });
    if (result.success) checked = result.data;
    else {
      const expectedAt = (path: readonly PropertyKey[]) => {
        const type = typeAt(fields, path);
        return type && describeType(type);
      };
      errors.push(...toEventErrors(result.error.issues, 'payload', expectedAt));
    }
  }

  if (errors.length > 0 || !spec || !checked || !envelope.success) return { ok: false, errors };
  return {
    ok: true,
    event: {
      event_id: spec.id,
      event_type: spec.eventType,
      payload_version: spec.version,
      id: envelope.data.id ?? null,
      occurred_at: envelope.data.occurred_at ?? null,
      payload: checked,
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
