// Credentials for authenticated endpoints: the API key as HTTP basic auth (key as user name, empty
// password), a given token (`Authorization: Token <t>`), or a token obtained from the key through
// the GraphQL mutation obtainKrakenToken, cached and renewed before it expires.
// Secrets live in private fields so that logging or serialising these objects never shows them.
import type { Credentials, HttpClient } from './HttpClient.js';
import { AuthError, ApiError, refusedByApi } from './errors.js';
import { krakenTokenResponseSchema } from './schemas.js';
import { redactUrl } from './urls.js';

export class ApiKeyCredentials implements Credentials {
  readonly kind = 'API key';
  readonly #header: string;
  constructor(apiKey: string) {
    this.#header = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
  }
  async authorization(): Promise<string> {
    return this.#header;
  }
  toJSON(): string {
    return '[ApiKeyCredentials]';
  }
}

export class TokenCredentials implements Credentials {
  readonly kind = 'token';
  readonly #header: string;
  constructor(token: string) {
    this.#header = `Token ${token}`;
  }
  async authorization(): Promise<string> {
    return this.#header;
  }
  toJSON(): string {
    return '[TokenCredentials]';
  }
}

const OBTAIN_TOKEN = `mutation ObtainKrakenToken($input: ObtainJSONWebTokenInput!) {
  obtainKrakenToken(input: $input) { token payload refreshToken refreshExpiresIn }
}`;

export interface KrakenTokenOptions {
  /** Renew this long before the token's expiry. */
  renewBeforeMs?: number;
  /** Lifetime assumed when the response states none. */
  defaultLifetimeMs?: number;
  now?: () => number;
}

export class KrakenTokenCredentials implements Credentials {
  readonly kind = 'token obtained from the API key';
  readonly #apiKey: string;
  readonly #graphqlUrl: URL;
  #token: { header: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;
  private readonly renewBeforeMs: number;
  private readonly defaultLifetimeMs: number;
  private readonly now: () => number;
  /** How many tokens were obtained (tests check the cache). */
  obtained = 0;

  constructor(apiKey: string, baseUrl: URL, options: KrakenTokenOptions = {}) {
    this.#apiKey = apiKey;
    this.#graphqlUrl = new URL('graphql/', baseUrl);
    this.renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
    this.defaultLifetimeMs = options.defaultLifetimeMs ?? 55 * 60_000;
    this.now = options.now ?? Date.now;
  }

  async authorization(http: HttpClient): Promise<string> {
    if (this.#token && this.now() < this.#token.expiresAt - this.renewBeforeMs) return this.#token.header;
    this.#pending ??= this.obtain(http).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  invalidate(): boolean {
    this.#token = undefined;
    return true;
  }

  toJSON(): string {
    return '[KrakenTokenCredentials]';
  }

  private async obtain(http: HttpClient): Promise<string> {
    const context = { method: 'POST', url: redactUrl(this.#graphqlUrl) };
    let json: unknown;
    try {
      ({ json } = await http.postJson(this.#graphqlUrl, { query: OBTAIN_TOKEN, variables: { input: { APIKey: this.#apiKey } } }));
    } catch (error) {
      // a block or KT-CT-1199 says nothing of the key: reported as it is, never as a rejected key
      if (refusedByApi(error)) throw error;
      if (error instanceof ApiError) throw new AuthError(`could not obtain a token: ${this.scrub(error.message)}`, { ...context, cause: error });
      throw error;
    }
    const parsed = krakenTokenResponseSchema.safeParse(json);
    const result = parsed.success ? parsed.data.data?.obtainKrakenToken : undefined;
    if (!parsed.success || !result) {
      const reason = parsed.success ? parsed.data.errors?.map((e) => e.message).join('; ') : 'unexpected response';
      throw new AuthError(`could not obtain a token: ${this.scrub(reason || 'no token in the response')}`, context);
    }
    this.#token = { header: `Token ${result.token}`, expiresAt: this.now() + this.lifetimeMs(result.payload ?? jwtClaims(result.token)) };
    this.obtained++;
    return this.#token.header;
  }

  /** How long a token lasts: exp − iat when both are given, which holds whatever the server's clock
   *  says against ours; else until exp by our clock; else the default lifetime. */
  private lifetimeMs(claims: { exp?: number | undefined; iat?: number | undefined } | undefined): number {
    if (claims?.exp !== undefined && claims.iat !== undefined && claims.exp > claims.iat) return (claims.exp - claims.iat) * 1000;
    if (claims?.exp !== undefined) return claims.exp * 1000 - this.now();
    return this.defaultLifetimeMs;
  }

  /** Server messages are shown, but never with our key in them. */
  private scrub(text: string): string {
    return text.split(this.#apiKey).join('[redacted]');
  }
}

/** The exp and iat claims of a JWT, when the token is one. */
function jwtClaims(token: string): { exp?: number; iat?: number } | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const { exp, iat } = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as { exp?: unknown; iat?: unknown };
    return { ...(typeof exp === 'number' ? { exp } : {}), ...(typeof iat === 'number' ? { iat } : {}) };
  } catch {
    return undefined;
  }
}

export type AuthMode = 'basic' | 'token';

/** Picks credentials from what the configuration holds: a token wins; a key uses basic auth, or
 *  the GraphQL token flow when `mode` is 'token'. Undefined when there are none. */
export function credentialsFrom(
  secrets: { apiKey?: string; token?: string },
  baseUrl: URL,
  mode: AuthMode = 'basic',
): Credentials | undefined {
  if (secrets.token) return new TokenCredentials(secrets.token);
  if (secrets.apiKey) return mode === 'token' ? new KrakenTokenCredentials(secrets.apiKey, baseUrl) : new ApiKeyCredentials(secrets.apiKey);
  return undefined;
}
