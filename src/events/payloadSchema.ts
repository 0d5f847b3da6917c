// zod schemas built from the catalog, one per event id, made on first use and kept. Objects are
// loose: fields the catalog does not list are tolerated and kept (later versions add fields).
import { z } from 'zod';
import type { EventSpec, FieldSpec, FieldType, StructSpec } from './EventCatalog.js';

export type PayloadSchema = z.ZodType<Record<string, unknown>>;

const bySpec = new WeakMap<EventSpec, PayloadSchema>();
const byStruct = new WeakMap<StructSpec, PayloadSchema>();

export function payloadSchema(spec: EventSpec): PayloadSchema {
  let schema = bySpec.get(spec);
  if (!schema) {
    schema = objectSchema(spec.fields);
    bySpec.set(spec, schema);
  }
  return schema;
}

function objectSchema(fields: readonly FieldSpec[]): PayloadSchema {
  const shape: Record<string, z.ZodType> = {};
  // An optional field may be absent; present, it must be valid. null is never valid: the spec's
  // payload rule is that an optional field not supplied "is omitted from the payload entirely".
  for (const field of fields) {
    shape[field.name] = field.required ? typeSchema(field.type) : typeSchema(field.type).optional();
  }
  return z.looseObject(shape);
}

function typeSchema(type: FieldType): z.ZodType {
  switch (type.kind) {
    case 'string':
      return z.string();
    case 'integer':
      return z.int(); // no fraction, and within ±(2^53−1) where JSON numbers stay exact
    case 'boolean':
      return z.boolean();
    case 'number':
      return z.number();
    case 'object':
      return z.looseObject({}); // any content, but an object: not an array, not null
    case 'array':
      return z.array(typeSchema(type.items));
    case 'struct': {
      let schema = byStruct.get(type.struct);
      if (!schema) {
        schema = objectSchema(type.struct.fields);
        byStruct.set(type.struct, schema);
      }
      return schema;
    }
  }
}

/** The catalog type at a payload path (`['created_records', 1, 'gas_industry_code']`), if any. */
export function typeAt(fields: readonly FieldSpec[], path: readonly PropertyKey[]): FieldType | undefined {
  let current: readonly FieldSpec[] | undefined = fields;
  let type: FieldType | undefined;
  for (const key of path) {
    if (typeof key === 'number') {
      if (type?.kind !== 'array') return undefined;
      type = type.items;
    } else {
      type = current?.find((f) => f.name === key)?.type;
      if (!type) return undefined;
    }
    current = type.kind === 'struct' ? type.struct.fields : undefined;
  }
  return type;
}
