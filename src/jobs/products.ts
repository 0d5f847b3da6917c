// The `products` job: refresh the products list (daily, 06:00 Europe/London). The tracked
// tariffs' rows in the tariffs table are refreshed by every `rates` run, from the product details.
import { runIngest } from '../ingest/ingest.js';
import type { JobContext, JobDefinition, JobResult, JobSchedule } from '../schedule/Job.js';
import { ingestContextOf } from './ingestContext.js';

export const schedules: readonly JobSchedule[] = [
  { key: 'products', cron: '0 6 * * *', description: 'daily at 06:00' },
];

export async function run(ctx: JobContext): Promise<JobResult> {
  const { config } = ctx;
  const summary = await runIngest(
    { tariffs: config.tariffs, products: config.products, accounts: config.accounts, useCases: ['products'], job: 'products' },
    ingestContextOf(ctx),
  );
  return {
    status: summary.status,
    ingestRunId: summary.run_id,
    ratesChanged: 0,
    details: { products: summary.products, requests: summary.requests, seconds: summary.seconds },
  };
}

export const job: JobDefinition = { name: 'products', description: 'refresh the products list', schedules, run };
