// The rows of an export's table as a file format gets them: the column list of the query each
// report's file is copied from.

export interface ExportColumn {
  name: string;
  type: string;
}

/**
 * The rows of `table` as `format` gets them (README, Exports: "Conventions"). Each TIMESTAMPTZ
 * column (an `_utc` instant) is followed by its Europe/London wall time, `_utc` → `_wall`, and the
 * wall time's offset from UTC in minutes, `_utc` → `_utc_offset_minutes` (london_wall,
 * london_offset_minutes). Parquet keeps instants as timestamps adjusted to UTC, wall times as naive
 * timestamps and prices as DOUBLE (a DECIMAL arrives in pandas as Python Decimal objects); CSV
 * spells instants ISO 8601 in UTC (`2024-10-27T00:30:00Z`), the same whatever the session's
 * TimeZone (DuckDB's own text would follow it), and wall times `2024-10-27 01:30`.
 */
export function exportRowsSql(table: string, format: 'csv' | 'parquet', columns: readonly ExportColumn[]): string {
  const list = columns.flatMap(({ name, type }) => {
    const c = `"${name}"`;
    if (type === 'TIMESTAMP WITH TIME ZONE') {
      const base = name.replace(/_utc$/, '');
      const wall = format === 'csv' ? `strftime(london_wall(${c}), '%Y-%m-%d %H:%M')` : `london_wall(${c})`;
      return [
        format === 'csv' ? `strftime(timezone('UTC', ${c}), '%Y-%m-%dT%H:%M:%SZ') AS ${c}` : c,
        `${wall} AS "${base}_wall"`,
        `CAST(london_offset_minutes(${c}) AS INTEGER) AS "${base}_utc_offset_minutes"`,
      ];
    }
    if (format === 'parquet' && type.startsWith('DECIMAL')) return [`CAST(${c} AS DOUBLE) AS ${c}`];
    return [c];
  });
  return `SELECT ${list.join(', ')} FROM ${table}`;
}
