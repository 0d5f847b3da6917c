// @duckdb/node-api as the rest of src/ uses it: its public exports, loaded with require() rather
// than import. The package is CommonJS, and Node brings a CommonJS package into an ES module by
// first lexing its source for the names it exports (cjs-module-lexer): the index and the 45
// modules lib/duckdb.js re-exports. require() reads them without that pass. Loading the package
// in a fresh process, node 20, this machine (2 cores), five runs each: `await import(...)`
// 194-221 ms, `createRequire(import.meta.url)(...)` 113-138 ms. Every command that opens a
// warehouse paid the difference: `npm run bench -- --only=startup`, `tariffs daily` against a bare
// script reading the same rows, 744 against 577 ms before, 563-602 against 499-547 ms after.
// Import values and types from here; type-only imports from '@duckdb/node-api' cost nothing.
import { createRequire } from 'node:module';
import type * as DuckDB from '@duckdb/node-api';

const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDB;

export const { DuckDBConnection, DuckDBDataChunk, DuckDBInstance, DuckDBTypeId, DOUBLE, INTEGER, listValue } = duckdb;
export type DuckDBConnection = DuckDB.DuckDBConnection;
export type DuckDBDataChunk = DuckDB.DuckDBDataChunk;
export type DuckDBInstance = DuckDB.DuckDBInstance;
export type DuckDBTypeId = DuckDB.DuckDBTypeId;
export type { DuckDBAppender, DuckDBListValue, DuckDBResultReader, DuckDBValue } from '@duckdb/node-api';
