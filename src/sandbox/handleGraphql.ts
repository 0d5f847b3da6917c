// POST /v1/graphql/: the obtainKrakenToken mutation, enough for a client to trade the API key
// (or a refresh token) for a token, and the Intelligent Octopus Go queries (with a token): an
// account's devices, a device's flexPlannedDispatches and an account's completedDispatches
// (src/sandbox/sandboxDispatches.ts), and Power Up / Power Down events: customerFlexibilityCampaignEvents
// and savingSessions (src/sandbox/sandboxFlexibility.ts). Errors come back as GraphQL errors with HTTP 200, like
// Kraken; the GraphQL fault kinds (src/sandbox/faults.ts) act here.
import type { FaultSchedule } from './faults.js';
import { retryAfterHeaders } from './replies.js';
import type { Json } from './SandboxCatalog.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEYS } from './sandboxCredentials.js';
import { SANDBOX_EV_ACCOUNT, SANDBOX_EV_DEVICE, completedDispatchesAt, plannedDispatchesAt } from './sandboxDispatches.js';
import { campaignEventsAt, savingSessionsOf, type SandboxFlexEvent } from './sandboxFlexibility.js';
import type { TokenStore } from './TokenStore.js';

/** What the dispatch queries need of the server: the request's Authorization header, the
 *  accounts served, the clock and the faults in force. */
export interface GraphqlQueryContext {
  authorization: string | undefined;
  accounts: ReadonlyMap<string, Json>;
  now: Date;
  faults: FaultSchedule;
  /** Power Ups by import MPAN, in place of the sandbox's own (SandboxOptions.powerUps). */
  powerUps?: Readonly<Record<string, readonly SandboxFlexEvent[]>>;
}

const DISPATCH_FIELDS = ['devices', 'flexPlannedDispatches', 'completedDispatches', 'customerFlexibilityCampaignEvents', 'savingSessions'] as const;

export interface GraphqlResult {
  status: number;
  json: unknown;
  /** Retry-After of a graphql-error fault given retry_after (or retry_after_date). */
  headers?: Record<string, string>;
}

interface GraphqlBody {
  query?: unknown;
  variables?: unknown;
}

export function handleGraphql(bodyText: string, tokens: TokenStore, context?: GraphqlQueryContext): GraphqlResult {
  let body: GraphqlBody;
  try {
    body = JSON.parse(bodyText) as GraphqlBody;
  } catch {
    return { status: 400, json: { errors: [{ message: 'Body is not valid JSON.' }] } };
  }
  if (typeof body !== 'object' || body === null || typeof body.query !== 'string') {
    return { status: 400, json: { errors: [{ message: 'Expected a JSON object with a "query" string.' }] } };
  }
  const query = body.query;
  const variables = (typeof body.variables === 'object' && body.variables !== null ? body.variables : {}) as Record<string, unknown>;
  const fields = DISPATCH_FIELDS.filter((f) => new RegExp(`\\b${f}\\s*[({]`).test(query));
  if (!/\bobtainKrakenToken\b/.test(query) && context && fields.length > 0) {
    return dispatchQuery(query, variables, fields, tokens, context);
  }
  if (!/\bobtainKrakenToken\b/.test(query)) {
    return {
      status: 200,
      json: {
        errors: [{
          message: 'The sandbox implements only the obtainKrakenToken mutation and the devices, flexPlannedDispatches, completedDispatches, customerFlexibilityCampaignEvents and savingSessions queries.',
          extensions: { errorType: 'VALIDATION' },
        }],
        data: null,
      },
    };
  }
  const apiKey = argument(query, variables, 'APIKey');
  const refreshToken = argument(query, variables, 'refreshToken');
  // Only the invalid-key code is known from the real service; the other failures carry no errorCode.
  const fail = (message: string, errorCode?: string) => ({
    status: 200,
    json: {
      errors: [{
        message,
        locations: [],
        path: ['obtainKrakenToken'],
        extensions: errorCode ? { errorType: 'AUTHORIZATION', errorCode } : { errorType: 'AUTHORIZATION' },
      }],
      data: { obtainKrakenToken: null },
    },
  });
  // graphql-error with field=obtainKrakenToken: the token call itself throttled (KT-CT-1199), as
  // BottlecapDave/HomeAssistant-OctopusEnergy#1731 shows the real service doing
  const failure = context?.faults.atGraphqlField('obtainKrakenToken').find((f) => f.kind === 'graphql-error');
  if (failure) {
    const code = failure.code ?? 'KT-CT-1199';
    return {
      status: 200,
      headers: retryAfterHeaders(failure, context!.now),
      json: {
        errors: [{
          message: code === 'KT-CT-1199' ? 'Too many requests.' : 'Sandbox fault.', locations: [], path: ['obtainKrakenToken'],
          extensions: { errorType: 'AUTHORIZATION', errorCode: code },
        }],
        data: { obtainKrakenToken: null },
      },
    };
  }
  if (apiKey !== undefined) {
    if (!SANDBOX_API_KEYS.includes(apiKey)) return fail('Invalid API key.', 'KT-CT-1119');
  } else if (refreshToken !== undefined) {
    const check = tokens.useRefreshToken(refreshToken);
    if (check === 'expired') return fail('The refresh token has expired.');
    if (check === 'unknown') return fail('Invalid refresh token.');
  } else {
    return fail('Provide an APIKey or a refreshToken in the input.');
  }
  return { status: 200, json: { data: { obtainKrakenToken: tokens.issue(`kraken|account-user:${SANDBOX_ACCOUNT}`) } } };
}

/**
 * The value of `name` in the mutation's input: `variables.input.name`, a literal `name: "…"` in
 * the query text, or `name: $var` resolved from variables.
 */
function argument(query: string, variables: Record<string, unknown>, name: string): string | undefined {
  const input = variables.input;
  if (typeof input === 'object' && input !== null) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value === 'string') return value;
  }
  const literal = new RegExp(`\\b${name}\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(query);
  if (literal) return JSON.parse(`"${literal[1]}"`) as string;
  const variable = new RegExp(`\\b${name}\\s*:\\s*\\$(\\w+)`).exec(query);
  if (variable) {
    const value = variables[variable[1]!];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The dispatch queries: each field asked for answers data or an error of its own (partial data,
 *  as GraphQL does). Only a token authenticates GraphQL (`Token …`, `JWT …` or the bare token). */
function dispatchQuery(
  query: string, variables: Record<string, unknown>, fields: readonly string[], tokens: TokenStore, context: GraphqlQueryContext,
): GraphqlResult {
  const header = context.authorization?.trim() ?? '';
  const token = /^(?:Token|JWT|Bearer)\s+(\S+)$/i.exec(header)?.[1] ?? (/^\S+$/.test(header) && !/^Basic$/i.test(header) ? header : undefined);
  if (!token || tokens.check(token) !== 'valid') {
    const message = !token ? 'Authentication credentials were not provided: GraphQL needs a token from obtainKrakenToken.'
      : tokens.check(token) === 'expired' ? 'Token has expired.' : 'Invalid token.';
    return { status: 200, json: { errors: [{ message, path: [fields[0]], extensions: { errorType: 'AUTHORIZATION' } }], data: null } };
  }
  const data: Record<string, unknown> = {};
  const errors: unknown[] = [];
  let headers: Record<string, string> = {};
  const error = (field: string, message: string, extensions: Record<string, string>) => {
    data[field] = null;
    errors.push({ message, locations: [], path: [field], extensions });
  };
  for (const field of fields) {
    const faults = context.faults.atGraphqlField(field);
    const failure = faults.find((f) => f.kind === 'graphql-error');
    if (failure) {
      const code = failure.code ?? 'KT-CT-4340';
      headers = { ...headers, ...retryAfterHeaders(failure, context.now) };
      error(field, code === 'KT-CT-4340' ? 'Unable to get planned dispatches.' : code === 'KT-CT-1199' ? 'Too many requests.' : 'Sandbox fault.',
        { errorType: code === 'KT-CT-1199' ? 'THROTTLING' : 'APPLICATION', errorCode: code });
      continue;
    }
    if (field === 'flexPlannedDispatches') {
      const device = argument(query, variables, 'deviceId');
      if (device !== SANDBOX_EV_DEVICE) {
        error(field, `No device ${device ?? '(none given)'} on this account.`, { errorType: 'VALIDATION' });
        continue;
      }
      data[field] = plannedDispatchesAt(context.now.getTime(), faults.some((f) => f.kind === 'dispatches-vanish'));
      continue;
    }
    const account = argument(query, variables, 'accountNumber');
    if (account === undefined || !context.accounts.has(account)) {
      error(field, `Unauthorized to access account ${account ?? '(none given)'}.`, { errorType: 'AUTHORIZATION' });
      continue;
    }
    const ev = account === SANDBOX_EV_ACCOUNT;
    if (field === 'customerFlexibilityCampaignEvents') {
      const mpan = argument(query, variables, 'supplyPointIdentifier');
      const given = mpan === undefined ? undefined : context.powerUps?.[mpan];
      data[field] = ev || given ? campaignEventsAt(context.now.getTime(), mpan, argument(query, variables, 'campaignSlug'), given)
        : { edges: [] };
    } else if (field === 'savingSessions') {
      data[field] = savingSessionsOf(ev);
    } else if (field === 'devices') {
      data[field] = ev
        ? [{ id: SANDBOX_EV_DEVICE, deviceType: 'ELECTRIC_VEHICLES', provider: 'TESLA', status: { current: 'LIVE' }, __typename: 'SmartFlexVehicle' }]
        : [];
    } else {
      data[field] = ev ? completedDispatchesAt(context.now.getTime(), faults.some((f) => f.kind === 'dispatches-late')) : [];
    }
  }
  return { status: 200, headers, json: errors.length > 0 ? { errors, data } : { data } };
}
