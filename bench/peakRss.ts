// Preloaded into a measured command (`node --import dist/bench/peakRss.js …`): on exit it writes the
// process's peak RSS and CPU time to the file TARIFFS_BENCH_RSS_FILE names (bench/processes.ts).
import { writeFileSync } from 'node:fs';

const file = process.env.TARIFFS_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssMb: Math.round(usage.maxRSS / 1024), cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }));
  });
}
