// `node --import ./test/helpers/traceImports.mjs …`: appends the URL of every module the process
// loads through the ES module loader to the file named by TRACE_IMPORTS_FILE (cli-startup.test.ts).
import { register } from 'node:module';

register('./traceImportsHooks.mjs', import.meta.url, { data: { file: process.env.TRACE_IMPORTS_FILE } });
