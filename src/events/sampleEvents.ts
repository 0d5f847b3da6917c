// Valid example events generated from the catalog (every field, nested structures and two-element
// arrays filled in), for the loader's tests and the load benchmark: no hand-written payloads.
import type { EventSpec, FieldSpec, FieldType } from './EventCatalog.js';

/** A value of `type`; `seed` (a dot path) makes strings differ from field to field. */
export function sampleValue(type: FieldType, seed: string): unknown {
  switch (type.kind) {
    case 'string':
      return `${seed}-value`;
    case 'integer':
      return seed.length;
    case 'boolean':
      return seed.length % 2 === 0;
    case 'number':
      return seed.length + 0.25;
    case 'object':
      return { any: 'content', of: [seed] };
    case 'array':
      return [sampleValue(type.items, `${seed}.0`), sampleValue(type.items, `${seed}.1`)];
    case 'struct':
      return samplePayload(type.struct.fields, seed);
  }
}

/** Every field of the list, optional ones included. */
export function samplePayload(fields: readonly FieldSpec[], seed = 'p'): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of fields) payload[field.name] = sampleValue(field.type, `${seed}.${field.name}`);
  return payload;
}

export interface SampleEnvelope {
  id?: string;
  event_type: string;
  payload_version: string;
  occurred_at?: string;
  payload: Record<string, unknown>;
}

/** An event line's object for `spec`, with an `id` and `occurred_at` when given. */
export function sampleEvent(spec: EventSpec, envelope: { id?: string; occurred_at?: string } = {}): SampleEnvelope {
  return {
    ...(envelope.id === undefined ? {} : { id: envelope.id }),
    event_type: spec.eventType,
    payload_version: spec.version,
    ...(envelope.occurred_at === undefined ? {} : { occurred_at: envelope.occurred_at }),
    payload: samplePayload(spec.fields),
  };
}
