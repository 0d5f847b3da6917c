// The benchmarks' API server: the sandbox in its own process (so serving pages does not compete
// with the client measured) holding N tariffs, each a copy of the real region-J Agile series
// (76,604 half-hours, 2020-01 … 2024-05). Prints one JSON line {baseUrl, tariffs, rows}.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxDataDir } from '../src/paths.js';
import { REGIONS_FOR_BENCH, benchTariffCode } from './benchTariffs.js';
import { startSandbox, type RateInput } from '../src/sandbox/startSandbox.js';

function realSeries(): RateInput[] {
  const text = readFileSync(join(sandboxDataDir(), 'wyvernp-agile_predictor', 'csv_agile_J_South_Eastern_England.csv'), 'utf8');
  const rates: RateInput[] = [];
  for (const line of text.split('\n').slice(1)) {
    if (!line) continue;
    const [stamp, price] = line.split(',');
    const from = Date.parse(stamp!.replace(' ', 'T'));
    const inc = Number(price);
    rates.push({
      valid_from: new Date(from).toISOString().replace('.000Z', 'Z'),
      valid_to: new Date(from + 1_800_000).toISOString().replace('.000Z', 'Z'),
      value_exc_vat: Math.round((inc / 1.05) * 10_000) / 10_000,
      value_inc_vat: inc,
      payment_method: null,
    });
  }
  return rates;
}

const args = process.argv.slice(2);
const count = Number(args[args.indexOf('--tariffs') + 1] ?? 14);
const latency = args.includes('--latency') ? Number(args[args.indexOf('--latency') + 1]) : 0;
const sandbox = await startSandbox({ latencyMs: latency });
const series = realSeries();
const tariffs = REGIONS_FOR_BENCH.slice(0, count).map(benchTariffCode);
for (const tariffCode of tariffs) sandbox.addTariff({ tariffCode, rates: series });
process.stdout.write(`${JSON.stringify({ baseUrl: sandbox.baseUrl, tariffs, rows: series.length * tariffs.length })}\n`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
