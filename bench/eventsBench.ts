// Events benchmark section: loads N generated events (1M; quick: 100k) with the built CLI in its
// own process (bench/events.ts) and reports throughput and the loader's peak RSS.
import { runJson } from './processes.js';

interface EventsRun {
  events: number;
  file_mb: number;
  load_seconds: number;
  events_per_second: number;
  max_rss_mb: number;
}

export async function eventsBench(quick: boolean, log: (line: string) => void): Promise<{ results: Record<string, number>; details: Record<string, unknown> }> {
  const run = await runJson<EventsRun>('./events.js', ['--events', quick ? '100000' : '1000000']);
  log(`events load: ${run.events} events (${run.file_mb} MB) at ${Math.round(run.events_per_second)}/s, peak RSS ${run.max_rss_mb} MB`);
  return {
    results: { events_load_per_s: Math.round(run.events_per_second), events_load_peak_rss_mb: run.max_rss_mb },
    details: run as unknown as Record<string, unknown>,
  };
}
