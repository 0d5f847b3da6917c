// One ingest run in its own process, so its peak RSS is its own. Prints a JSON line:
// {seconds, requests, pages, inserted, updated, unchanged, maxRssMb}.
import { loadConfig } from '../src/config/loadConfig.js';
import { runIngest } from '../src/ingest/ingest.js';
import { silentLogger } from '../src/log/createLogger.js';

const [db, baseUrl, tariffList, from] = process.argv.slice(2);
const config = await loadConfig({ db, baseUrl }, {});
// Where the memory goes: V8 heap, off-heap buffers, and the rest of the RSS (DuckDB, code).
const peak = { heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, rssMb: 0 };
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak.heapUsedMb = Math.max(peak.heapUsedMb, Math.round(m.heapUsed / 2 ** 20));
  peak.heapTotalMb = Math.max(peak.heapTotalMb, Math.round(m.heapTotal / 2 ** 20));
  peak.externalMb = Math.max(peak.externalMb, Math.round(m.external / 2 ** 20));
  peak.rssMb = Math.max(peak.rssMb, Math.round(m.rss / 2 ** 20));
}, 250); // sampled rarely: process.memoryUsage() is not free
const started = performance.now();
const summary = await runIngest(
  { tariffs: tariffList!.split(','), products: [], accounts: [], from: from === '-' || !from ? undefined : new Date(from), useCases: ['rates'] },
  { config, logger: silentLogger() },
);
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
process.stdout.write(`${JSON.stringify({
  seconds, requests: summary.requests, pages: summary.pages, inserted: summary.inserted, updated: summary.updated,
  unchanged: summary.unchanged, status: summary.status, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  memory: peak,
})}\n`);
