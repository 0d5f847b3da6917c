// Tokens the sandbox's obtainKrakenToken hands out, and whether a presented one is still good.
// Opaque random strings with an expiry; time comes from the injected clock so tests can age them.
import { randomBytes } from 'node:crypto';
import { REFRESH_TOKEN_TTL_SECONDS } from './sandboxCredentials.js';

export interface IssuedToken {
  token: string;
  payload: { sub: string; gen: number; exp: number; origIat: number; iat: number; iss: string; tokenUse: 'access' };
  refreshToken: string;
  refreshExpiresIn: number;
}

export type TokenCheck = 'valid' | 'expired' | 'unknown';

export class TokenStore {
  private readonly access = new Map<string, number>();
  private readonly refresh = new Map<string, number>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly now: () => Date,
  ) {}

  issue(subject: string): IssuedToken {
    const iat = Math.floor(this.now().getTime() / 1000);
    const token = `sbx_tok_${randomBytes(24).toString('base64url')}`;
    const refreshToken = `sbx_ref_${randomBytes(24).toString('base64url')}`;
    const exp = iat + this.ttlSeconds;
    const refreshExpiresIn = iat + REFRESH_TOKEN_TTL_SECONDS;
    this.access.set(token, exp);
    this.refresh.set(refreshToken, refreshExpiresIn);
    return {
      token,
      payload: { sub: subject, gen: 1, exp, origIat: iat, iat, iss: 'tariffs-sandbox', tokenUse: 'access' },
      refreshToken,
      refreshExpiresIn,
    };
  }

  check(token: string): TokenCheck {
    return checkIn(this.access, token, this.now());
  }

  /** A refresh token is good for one new access token. */
  useRefreshToken(refreshToken: string): TokenCheck {
    const result = checkIn(this.refresh, refreshToken, this.now());
    if (result === 'valid') this.refresh.delete(refreshToken);
    return result;
  }
}

function checkIn(store: Map<string, number>, token: string, now: Date): TokenCheck {
  const exp = store.get(token);
  if (exp === undefined) return 'unknown';
  return now.getTime() / 1000 < exp ? 'valid' : 'expired';
}
