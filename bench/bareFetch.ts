// The physical limit of a backfill: fetch and JSON.parse the same pages the ingest fetches (same
// chunk windows, page size and concurrency), and nothing else. Prints {seconds, requests, records}.
import { Agent, request } from 'undici';
import { DEFAULT_CHUNK_SLOTS, splitWindow } from '../src/ingest/ingestRates.js';
import { PAGE_SIZE } from '../src/api/paginate.js';
import { isoUtc } from '../src/api/OctopusClient.js';

export async function bareFetch(baseUrl: string, productCode: string, tariffs: string[], from: Date, concurrency: number): Promise<{ seconds: number; requests: number; records: number }> {
  const dispatcher = new Agent({ connections: concurrency });
  const now = new Date();
  const urls: URL[] = [];
  for (const tariff of tariffs) {
    for (const span of splitWindow(from, undefined, DEFAULT_CHUNK_SLOTS * 1_800_000, now)) {
      const url = new URL(`products/${productCode}/electricity-tariffs/${tariff}/standard-unit-rates/`, baseUrl);
      url.searchParams.set('period_from', isoUtc(span.from));
      if (span.to) url.searchParams.set('period_to', isoUtc(span.to));
      url.searchParams.set('page_size', String(PAGE_SIZE));
      urls.push(url);
    }
  }
  let requests = 0;
  let records = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < urls.length) {
      let url: string | null = urls[next++]!.href;
      while (url) {
        const res = await request(url, { dispatcher });
        const page = JSON.parse(await res.body.text()) as { next: string | null; results: unknown[] };
        requests++;
        records += page.results.length;
        url = page.next;
      }
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  return { seconds, requests, records };
}

if (process.argv[1]?.endsWith('bareFetch.js')) {
  const [baseUrl, product, tariffList, from, concurrency] = process.argv.slice(2);
  const result = await bareFetch(baseUrl!, product!, tariffList!.split(','), new Date(from!), Number(concurrency ?? 4));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
