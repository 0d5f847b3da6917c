// An SQL identifier (a database, schema or table name) quoted for DuckDB: values are bound as
// parameters, identifiers cannot be, so they go through here.
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
