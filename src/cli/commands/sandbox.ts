// `tariffs sandbox`: serve the recorded supplier interface locally until SIGINT/SIGTERM, so the
// whole project can run, demo and be tested with no internet. Prints the base URL on stdout.
import type { Command } from 'commander';
import { loadConfig } from '../../config/loadConfig.js';
import { UsageError } from '../../errors.js';
import { parseApiDateTime } from '../../sandbox/queryParams.js';
import {
  SANDBOX_ACCOUNT, SANDBOX_API_KEY, SANDBOX_EV_ACCOUNT, SANDBOX_PROFILES, SPEC_PROFILE_FAULTS, parseFaultSpec, startSandbox,
  type SandboxOptions, type SandboxProfile,
} from '../../sandbox/startSandbox.js';
import { loadSandboxData } from '../../sandbox/loadSandboxData.js';
import { resolveFormat, writeRows } from '../output.js';
import { action } from '../run.js';
import { loggerFor, type GlobalFlags } from '../common.js';
import { oneOf, wholeNumber } from '../flagRules.js';
import { onStopSignals } from '../signals.js';

interface SandboxFlags extends GlobalFlags {
  port: number;
  host: string;
  latency?: number;
  fault: string[];
  visibleUntil?: Date;
  tokenTtl: number;
  list?: boolean;
  format?: string;
  profile: SandboxProfile;
}

const HELP = `
Serves GET /v1/products/, /v1/products/{code}/, …/electricity-tariffs/{tariff}/standard-unit-rates/
(and day-unit-rates, night-unit-rates, standing-charges, gas-tariffs), /v1/accounts/{number}/ and
POST /v1/graphql/ (obtainKrakenToken) from the recorded data in data/sandbox/ (see its README.md).

Profiles (--profile):
  default  everything above, as the real API serves it.
  spec     only what the documented interface has: the products list (25 a page, with fields the
           spec does not list on envelopes and records), product detail, standard unit rates
           (page_size ignored: 100 a page) and accounts. Standing charges, day/night rates and
           GraphQL answer 404; requests are throttled now and then (${SPEC_PROFILE_FAULTS.join(', ')}).

Credentials: API key ${SANDBOX_API_KEY} (HTTP basic user name, empty password,
or obtainKrakenToken(input: {APIKey: "…"}) for a token), account ${SANDBOX_ACCOUNT}; account
${SANDBOX_EV_ACCOUNT} is on the four-rate EV tariff, and GraphQL serves its devices,
flexPlannedDispatches(deviceId) and completedDispatches(accountNumber) (with a token).

Fault specs (--fault, repeatable): KIND[:key=value[,key=value...]]
  KIND: latency (ms=N) | 429 | 500 | 502 | 503 | 504 (retry_after=SECONDS or retry_after_date=SECONDS,
        sent as an HTTP date) | reset | stall-headers | stall-body (bytes=N) | truncate (bytes=N) |
        invalid-record (field=NAME, value=TEXT|missing|null, index=N) |
        dispatches-vanish (planned dispatches: the first slot gone, the second moved) |
        dispatches-late (completed dispatches of the last 24 h held back) |
        graphql-error (code=KT-CT-4340 by default, field=flexPlannedDispatches by default;
        field=obtainKrakenToken fails the token call, KT-CT-1199 by default; retry_after… sends
        Retry-After with it) |
        blocked (403 "Request blocked" HTML page, not the API's JSON; body=empty for none, body=json
        for JSON without the API's detail; retry_after…)
  selectors for every kind: path=SUBSTRING, after=N (skip the first N matches), every=N (every Nth
        match), times=N (at most N hits)
  e.g. --fault 503:path=page=2,times=2  --fault latency:ms=200  --fault invalid-record:field=valid_from,value=missing

Examples:
  tariffs sandbox --port 8080
  TARIFFS_BASE_URL=http://127.0.0.1:8080/v1/ tariffs …
  tariffs sandbox --list`;

export function configure(command: Command): void {
  command
    .option('--port <n>', 'port to listen on (0 = any free port)', wholeNumber('--port', 0, 65535), 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--latency <ms>', 'delay every response by this many milliseconds', wholeNumber('--latency', 0, 600_000))
    .option('--fault <spec>', 'inject a fault (repeatable; grammar below)', faultSpecs, [])
    .option('--visible-until <datetime>', 'hide rates with valid_from at or after this instant (ISO 8601)', visibleUntil)
    .option('--token-ttl <seconds>', 'lifetime of tokens from obtainKrakenToken', wholeNumber('--token-ttl', 1, 365 * 24 * 3600), 3600)
    .option('--profile <name>', `what to serve: ${SANDBOX_PROFILES.join(' or ')} (see below)`, oneOf('--profile', SANDBOX_PROFILES), 'default')
    .option('--list', 'print the tariffs served (rows, date range) and exit')
    .option('--format <format>', 'with --list: table, csv or json')
    .addHelpText('after', HELP)
    .action(action(async (flags: SandboxFlags) => {
      if (flags.list) {
        const rows = loadSandboxData().summary();
        writeRows(rows, resolveFormat(flags.format));
        return;
      }
      const config = await loadConfig();
      const logger = await loggerFor(config, flags);
      const options: SandboxOptions = {
        port: flags.port, host: flags.host, tokenTtlSeconds: flags.tokenTtl, faults: flags.fault, profile: flags.profile,
        ...(flags.latency === undefined ? {} : { latencyMs: flags.latency }),
        ...(flags.visibleUntil === undefined ? {} : { visibleUntil: flags.visibleUntil }),
      };
      const sandbox = await startSandbox({ ...options, logger });
      process.stdout.write(`${sandbox.baseUrl}\n`);
      let stopListening = (): void => undefined;
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        stopListening = onStopSignals({ first: resolve });
      });
      stopListening(); // a second signal while closing ends the process, as by default
      logger.info({ signal }, 'sandbox stopping');
      await sandbox.close();
    }));
}

/** A repeatable --fault, each checked against the grammar. */
function faultSpecs(spec: string, previous: string[]): string[] {
  try {
    parseFaultSpec(spec);
  } catch (error) {
    throw new UsageError(`--fault: ${(error as Error).message}`);
  }
  return [...previous, spec];
}

function visibleUntil(text: string): Date {
  const ms = parseApiDateTime(text);
  if (ms === undefined) throw new UsageError(`--visible-until: '${text}' is not an ISO 8601 datetime`);
  return new Date(ms);
}
