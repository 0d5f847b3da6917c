// `tariffs ingest`: fetch products and rates into the warehouse, incrementally and idempotently.
import type { Command } from 'commander';
import { EXIT, UsageError } from '../../errors.js';
import { parseTariffCode } from '../../api/tariffCodes.js';
import { runIngest } from '../../ingest/ingest.js';
import { parseUserDateTime } from '../../time/index.js';
import { action } from '../run.js';
import {
  busyTimeoutMsOf, collect, configFrom, formatOf, loggerFor, withApi, withBusyTimeout, withConfig, withDb, withFormat,
  type CommonFlags,
} from '../common.js';
import { parsed, rule, tariffCodes } from '../flagRules.js';
import { exitCodeOfSignal, interruptSignal } from '../signals.js';
import { createProgressBar } from '../progressBar.js';
import { writeRows } from '../output.js';

interface IngestFlags extends CommonFlags {
  tariff?: string[];
  product?: string[];
  region?: string[];
  account?: string[];
  from?: Date;
  to?: Date;
  products: boolean;
  consumption: boolean;
  busyTimeout?: number;
}

export function configure(command: Command): void {
  command
    .option('--tariff <code>', 'tariff code to track, e.g. E-1R-AGILE-24-10-01-C (repeatable)', tariffCodes)
    .option('--product <code>', "a product whose electricity tariffs to track, with --region (repeatable)", collect)
    .option('--region <letter>', 'region letter A-P for --product (repeatable)', (letter: string, previous?: string[]) => collect(letter.toUpperCase(), previous))
    .option('--account <number>', "track the tariffs of this account's agreements over their periods (needs credentials)", collect)
    .option('--from <when>', 'window start: ISO datetime with offset, a date (Europe/London day start), or naive Europe/London time',
      parsed('--from', parseUserDateTime))
    .option('--to <when>', 'window end (exclusive), same forms as --from', parsed('--to', parseUserDateTime))
    .option('--no-products', 'do not refresh the products list')
    .option('--no-consumption', "with --account: do not fetch the meters' consumption readings (config consumption: false); the account's meter points and agreements are stored all the same");
  rule<IngestFlags>(command, (f) => f.product !== undefined && f.region === undefined, '--product needs at least one --region');
  rule<IngestFlags>(command, (f) => f.region !== undefined && f.product === undefined, '--region goes with --product');
  withBusyTimeout(withConfig(withApi(withDb(withFormat(command)))));
  command.addHelpText('after', `
Without --from, each tariff continues from its last stored slot (re-reading a short look-back to
catch revisions); a tariff never seen starts at the config's default_from (else two years back).
A tariff needs its unit rates: those its product detail links (standard, or day and night), else
those its code implies (day and night for E-2R-…); standing charges are
optional: when the server lacks them, one warning, the rates are stored, and they are asked for
again a day later (summary: missing_optional; tariffs status shows them). Rates that come back
empty are reported in the summary's "empty", with a hint from the product's detail.
A run stops after max_run_seconds (config; 1800 by default, 0 = no limit) as on SIGTERM: the
current write finishes, the run is recorded as interrupted; the next run continues from there.
Exit status: 0 all required rates stored, 1 a tariff failed (the others are stored) or the run
hit max_run_seconds, 2 bad usage, 75 another tariffs job kept writing the database for longer
than --busy-timeout (nothing written), 130/143 interrupted.
The job writes a working file of its own (.NAME.job/ beside --db) and publishes --db when it
changed (copy, fsync, atomic rename): readers of --db are never locked out, nor lock the job out.
With --account, the account's meter points, agreements and half-hourly consumption are stored too
(meter_points, agreements, consumption), each meter continuing from its last reading less 7 days
(late reads); consumption endpoints a server does not offer (404/410/400, or retries exhausted)
give one warning naming the meter and URL (summary field warnings), and the run still succeeds;
a block or rate limit (403 page, 429, KT-CT-1199) fails that meter instead, the next run asks again.
An account with an Intelligent Octopus Go agreement (a four-rate EV tariff, ingested with --product
and --region for its night band, or an INTELLI code) also has its devices and planned and completed
dispatches fetched over GraphQL with a token (tables dispatches, smart_devices; view
effective_rates); a server without them gives one warning (summary warnings) and the run goes on.
Credentials: TARIFFS_API_KEY, --api-key-file or TARIFFS_TOKEN (only --account needs them).`);
  command.action(action(async (flags: IngestFlags) => {
    const config = await configFrom(flags);
    const logger = await loggerFor(config, flags);
    const regions = flags.region ?? [];
    const request = {
      tariffs: [...config.tariffs, ...(flags.tariff ?? [])],
      products: [...config.products, ...(flags.product ?? []).map((code) => ({ code, regions }))],
      accounts: [...config.accounts, ...(flags.account ?? [])],
      from: flags.from,
      to: flags.to,
      noProducts: !flags.products,
      noConsumption: !flags.consumption,
    };
    if (request.tariffs.length + request.products.length + request.accounts.length === 0 && !flags.products) {
      throw new UsageError('nothing to ingest: give --tariff, --product with --region, --account, or a --config that lists them');
    }
    // Check the config's codes before touching the network or the file (the flags' are checked as parsed).
    for (const code of config.tariffs) parseTariffCode(code, `${config.file ?? 'config'}: tariffs`);
    const format = formatOf(flags);
    const busyTimeoutMs = busyTimeoutMsOf(flags);
    const interrupt = interruptSignal(logger);
    const progress = await createProgressBar('ingest');
    try {
      let summary;
      try {
        summary = await runIngest(request, { config, logger, signal: interrupt.signal, progress, busyTimeoutMs });
      } catch (error) {
        const sig = interrupt.received();
        if (!sig) throw error;
        progress?.stop();
        process.stderr.write(`tariffs: interrupted by ${sig}; what was committed is kept, re-run to continue\n`);
        return exitCodeOfSignal(sig);
      }
      progress?.stop();
      // JSON keeps every field; a table or CSV cell gets one short line per list.
      const row = format === 'json' ? summary : {
        ...summary,
        missing_optional: summary.missing_optional.map((m) => `${m.resource} of ${m.tariff} (${m.status ?? m.code})`).join('; '),
        empty: summary.empty.map((e) => `${e.kind} of ${e.tariff}`).join('; '),
      };
      writeRows([row], format);
      const stoppedBy = interrupt.received();
      if (stoppedBy) return exitCodeOfSignal(stoppedBy);
      if (summary.status !== 'ok') {
        for (const e of summary.errors) process.stderr.write(`tariffs: ${e}\n`);
        return EXIT.FAILURE;
      }
      return EXIT.OK;
    } finally {
      progress?.stop();
      interrupt.dispose();
    }
  }));
}
