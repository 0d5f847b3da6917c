// The shape of the event catalog once parsed: every event id (`<event_type>-<version>`) with its
// payload fields resolved (inherited lists expanded, structure names replaced by their fields).

/** Catalog letters: s string, i integer, b boolean, n number, o object (any content). */
export type ScalarKind = 'string' | 'integer' | 'boolean' | 'number' | 'object';

export type FieldType =
  | { readonly kind: ScalarKind }
  | { readonly kind: 'array'; readonly items: FieldType }
  | { readonly kind: 'struct'; readonly struct: StructSpec };

export interface FieldSpec {
  readonly name: string;
  readonly required: boolean;
  readonly type: FieldType;
  /** The type as the catalog writes it: `s`, `[i]`, `Ledger`, `[PsrRecord]`. */
  readonly notation: string;
}

/** A shared structure ("Named structures are in the list of shared structures"). */
export interface StructSpec {
  readonly name: string;
  readonly catalog: string;
  readonly fields: readonly FieldSpec[];
}

export interface EventSpec {
  /** `<event_type>-<payload_version>`, e.g. `agreement.revoked-v2`, `lifecycle.support-site.sale-1.0.0`. */
  readonly id: string;
  readonly eventType: string;
  readonly version: string;
  /** `A` (event-catalog-a.md) or `B` (event-catalog-b.md). */
  readonly catalog: string;
  readonly section: string;
  readonly fields: readonly FieldSpec[];
  /** The catalog shows only some fields: those are checked, the rest are unknown (and tolerated). */
  readonly partial: boolean;
  /** The field list as written in the data file, before inherited lists were expanded. */
  readonly definition: string;
}

export interface EventCatalog {
  /** By event id, in catalog order. */
  readonly events: ReadonlyMap<string, EventSpec>;
  /** Event type → its payload versions, in catalog order. */
  readonly versions: ReadonlyMap<string, readonly string[]>;
  readonly structures: ReadonlyMap<string, StructSpec>;
}

export function eventId(eventType: string, version: string): string {
  return `${eventType}-${version}`;
}

/** `name*s` (required) or `name s` (optional), as the catalogs write a field. */
export function fieldNotation(field: FieldSpec): string {
  return `${field.name}${field.required ? '*' : ' '}${field.notation}`;
}

/** The structure inside a field type, looking through arrays (`[PsrRecord]` → PsrRecord). */
export function structOf(type: FieldType): StructSpec | undefined {
  if (type.kind === 'struct') return type.struct;
  if (type.kind === 'array') return structOf(type.items);
  return undefined;
}

const KIND_WORDS: Record<ScalarKind, string> = {
  string: 'string',
  integer: 'integer',
  boolean: 'boolean',
  number: 'number',
  object: 'object',
};

/** Words for messages: `integer`, `array of string`, `object PsrRecord`. */
export function describeType(type: FieldType): string {
  switch (type.kind) {
    case 'array':
      return `array of ${describeType(type.items)}`;
    case 'struct':
      return `object ${type.struct.name}`;
    default:
      return KIND_WORDS[type.kind];
  }
}
