// One ingest run in its own process, so its peak RSS is its own. Prints a JSON line:
// {seconds, requests, pages, inserted, updated, unchanged, maxRssMb}.
import { loadConfig } from '../src/config/loadConfig.js';
import { runIngest } from '../src/ingest/ingest.js';
import { silentLogger } from '../src/log/createLogger.js';

const [db, baseUrl, tariffList, from] = process.argv.slice(2);
const config = loadConfig({ db, baseUrl }, {});
const started = performance.now();
const summary = await runIngest(
  { tariffs: tariffList!.split(','), products: [], accounts: [], from: from === '-' || !from ? undefined : new Date(from), noProducts: true },
  { config, logger: silentLogger() },
);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({
  seconds, requests: summary.requests, pages: summary.pages, inserted: summary.inserted, updated: summary.updated,
  unchanged: summary.unchanged, status: summary.status, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
})}\n`);
