// The physical limit of a backfill: fetch and JSON.parse the same pages the ingest fetches (same
// first pages, page windows, page size and concurrency), and nothing else. Prints {seconds, requests, records}.
import { Agent, request } from 'undici';
import { pageWindowMs, pageWindows } from '../src/ingest/planFetches.js';
import type { UnitRate } from '../src/api/schemas.js';
import { stagedRates } from '../src/store/writeRates.js';
import { PAGE_SIZE } from '../src/api/paginate.js';
import { formatUtc } from '../src/time/index.js';

export async function bareFetch(baseUrl: string, productCode: string, tariffs: string[], from: Date, concurrency: number): Promise<{ seconds: number; requests: number; records: number }> {
  const dispatcher = new Agent({ connections: concurrency });
  let requests = 0;
  let records = 0;
  const getPage = async (url: string) => {
    const res = await request(url, { dispatcher });
    const page = JSON.parse(await res.body.text()) as { count: number; next: string | null; results: UnitRate[] };
    requests++;
    records += page.results.length;
    return page;
  };
  const ratesUrl = (tariff: string, kind: string, spanFrom: Date, spanTo?: Date) => {
    const url = new URL(`products/${productCode}/electricity-tariffs/${tariff}/${kind}/`, baseUrl);
    url.searchParams.set('period_from', formatUtc(spanFrom));
    if (spanTo) url.searchParams.set('period_to', formatUtc(spanTo));
    url.searchParams.set('page_size', String(PAGE_SIZE));
    return url.href;
  };
  const follow = async (url: string | null) => {
    while (url) url = (await getPage(url)).next;
  };
  // The same requests as the ingest: per tariff the first page of an open request and its
  // standing charges, then the older range in windows of one page each (as that first page shows
  // half-hourly rates), with the same concurrency.
  const queue: (() => Promise<void>)[] = [];
  for (const tariff of tariffs) {
    queue.push(async () => {
      const first = await getPage(ratesUrl(tariff, 'standard-unit-rates', from));
      if (first.next) {
        const oldest = new Date(Math.min(...first.results.map((r) => Date.parse(r.valid_from))));
        for (const window of pageWindows({ from, to: oldest }, pageWindowMs(stagedRates(first.results)))) {
          queue.push(() => follow(ratesUrl(tariff, 'standard-unit-rates', window.from, window.to)));
        }
      }
    });
    queue.push(() => follow(ratesUrl(tariff, 'standing-charges', from)));
  }
  const started = performance.now();
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      while (active < concurrency && queue.length > 0) {
        const task = queue.shift()!;
        active++;
        task().then(() => {
          active--;
          if (queue.length === 0 && active === 0) resolve();
          else pump();
        }, reject);
      }
    };
    pump();
  });
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  return { seconds, requests, records };
}

if (process.argv[1]?.endsWith('bareFetch.js')) {
  const [baseUrl, product, tariffList, from, concurrency] = process.argv.slice(2);
  const result = await bareFetch(baseUrl!, product!, tariffList!.split(','), new Date(from!), Number(concurrency ?? 4));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
