// `node --import ./test/helpers/traceImports.mjs …`: appends the URL of every module the process
// loads to the file named by TRACE_IMPORTS_FILE (cli-startup.test.ts): those of the ES module
// loader as they load (a loader hook), and at exit those CommonJS loaded with require() (the
// require cache: a CommonJS package's own require()s, which no ES module hook sees on Node 20).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.TRACE_IMPORTS_FILE;
register('./traceImportsHooks.mjs', import.meta.url, { data: { file } });
const required = createRequire(import.meta.url).cache;
process.on('exit', () => {
  if (file) appendFileSync(file, Object.keys(required).map((path) => `${pathToFileURL(path).href}\n`).join(''));
});
