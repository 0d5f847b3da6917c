// DuckDB result rows as plain JSON-ready objects: instants as ISO 8601 UTC (`...Z`), naive
// timestamps as local wall time without offset, dates as YYYY-MM-DD, every number as a number.
import { DuckDBTypeId, type DuckDBResultReader } from '@duckdb/node-api';

export type JsRow = Record<string, string | number | boolean | null | unknown[] | Record<string, unknown>>;

export function isoUtc(date: Date): string {
  return date.toISOString().replace(/\.000Z$/, 'Z');
}

export function rowsToJs(reader: DuckDBResultReader): JsRow[] {
  const names = reader.columnNames();
  const convert = reader.columnTypes().map((type) => converterFor(type.typeId));
  const rows = reader.getRowsJS();
  const out = new Array<JsRow>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const obj: JsRow = {};
    for (let c = 0; c < names.length; c++) obj[names[c]!] = convert[c]!(row[c]);
    out[r] = obj;
  }
  return out;
}

type Converter = (value: unknown) => JsRow[string];

function converterFor(typeId: DuckDBTypeId): Converter {
  switch (typeId) {
    case DuckDBTypeId.TIMESTAMP_TZ:
      return (v) => (v instanceof Date ? isoUtc(v) : (v as null));
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
      return (v) => (v instanceof Date ? v.toISOString().slice(0, 19) : (v as null));
    case DuckDBTypeId.DATE:
      return (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : (v as null));
    default:
      return plain;
  }
}

function plain(value: unknown): JsRow[string] {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return isoUtc(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) as Record<string, unknown>;
  }
  return value as JsRow[string];
}
