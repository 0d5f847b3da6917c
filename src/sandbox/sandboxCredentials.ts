// The sandbox's fixed, public credentials: tests and demos import them instead of copying strings.
// They only ever unlock the local sandbox; a real key never appears in this repository.

/** The organisation API key the sandbox accepts (HTTP basic user name, or obtainKrakenToken APIKey). */
export const SANDBOX_API_KEY = 'sk_sandbox_7AR1FF5D3M0K3Y0000000000';

/** Keys shaped as the supplier issues them: 32 characters (`sk_live_` and 24), and 40 since
 *  January 2026 (`sk_live_` and 32). The sandbox accepts both, beside SANDBOX_API_KEY. */
export const SANDBOX_API_KEY_32 = 'sk_live_SANDBOXKEY32CHARS0000000';
export const SANDBOX_API_KEY_40 = 'sk_live_SANDBOXKEY40CHARSSINCE2026JAN000';

/** Every key the sandbox accepts. */
export const SANDBOX_API_KEYS: readonly string[] = [SANDBOX_API_KEY, SANDBOX_API_KEY_32, SANDBOX_API_KEY_40];

/** The one account the sandbox serves at GET /v1/accounts/{number}/. */
export const SANDBOX_ACCOUNT = 'A-5A4DB0X1';

/** Default lifetime of tokens from obtainKrakenToken (the real one is an hour too). */
export const DEFAULT_TOKEN_TTL_SECONDS = 3600;

/** Lifetime of the refresh token handed out with each access token. */
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
