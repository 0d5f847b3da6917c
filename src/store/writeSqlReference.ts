// `npm run docs:sql` (after the build): rewrites the reference part of docs/sql.md from the
// contracts of sql/public; test/sql-contracts.test.ts fails while the file differs from it.
import { writeFileSync } from 'node:fs';
import { expectedSqlDocs, sqlDocsPath } from './sqlContracts.js';

writeFileSync(sqlDocsPath(), expectedSqlDocs());
