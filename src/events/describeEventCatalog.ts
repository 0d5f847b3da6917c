// The catalog as plain rows for `tariffs events catalog`: full detail (structures expanded) for
// JSON, and the catalogs' own compact notation for a table.
import { fieldNotation, structOf, type EventCatalog, type FieldSpec } from './EventCatalog.js';

export interface FieldDescription {
  name: string;
  /** Catalog notation: `s`, `i`, `b`, `n`, `o`, `[T]` or a structure name. */
  type: string;
  required: boolean;
  /** The structure's fields, for a structure or an array of one. */
  fields?: FieldDescription[];
}

export interface EventDescription {
  id: string;
  event_type: string;
  payload_version: string;
  catalog: string;
  section: string;
  /** Only some fields are shown in the catalog; others are tolerated. */
  partial: boolean;
  fields: FieldDescription[];
}

export function describeEventCatalog(catalog: EventCatalog): EventDescription[] {
  return [...catalog.events.values()].map((spec) => ({
    id: spec.id,
    event_type: spec.eventType,
    payload_version: spec.version,
    catalog: spec.catalog,
    section: spec.section,
    partial: spec.partial,
    fields: spec.fields.map(describeField),
  }));
}

function describeField(field: FieldSpec): FieldDescription {
  const struct = structOf(field.type);
  const description: FieldDescription = { name: field.name, type: field.notation, required: field.required };
  if (struct) description.fields = struct.fields.map(describeField);
  return description;
}

/** `account_number*s, is_imported b` (and `, ...` when the catalog shows only some fields). */
export function compactFields(fields: readonly FieldSpec[], partial = false): string {
  return [...fields.map(fieldNotation), ...(partial ? ['...'] : [])].join(', ');
}
