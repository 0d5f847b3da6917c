// POST /v1/graphql/: only the obtainKrakenToken mutation, enough for a client to trade the API key
// (or a refresh token) for a token. Errors come back as GraphQL errors with HTTP 200, like Kraken.
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY } from './sandboxCredentials.js';
import type { TokenStore } from './TokenStore.js';

export interface GraphqlResult {
  status: number;
  json: unknown;
}

interface GraphqlBody {
  query?: unknown;
  variables?: unknown;
}

export function handleGraphql(bodyText: string, tokens: TokenStore): GraphqlResult {
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
  if (!/\bobtainKrakenToken\b/.test(query)) {
    return {
      status: 200,
      json: { errors: [{ message: 'The sandbox implements only the obtainKrakenToken mutation.', extensions: { errorType: 'VALIDATION' } }], data: null },
    };
  }
  const variables = (typeof body.variables === 'object' && body.variables !== null ? body.variables : {}) as Record<string, unknown>;
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
  if (apiKey !== undefined) {
    if (apiKey !== SANDBOX_API_KEY) return fail('Invalid API key.', 'KT-CT-1119');
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
