// Base URL rules (HTTPS, or plain HTTP to loopback only; always ending in /v1/) and the redaction
// applied to every URL that reaches a log line or an error message.
import { BaseUrlError } from './errors.js';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m !== null && m.slice(1).every((p) => Number(p) <= 255);
}

/** Normalises a base URL to end in `/v1/`; refuses plain HTTP except to loopback hosts. */
export function normaliseBaseUrl(input: string, source = '--base-url'): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new BaseUrlError(`${source}: '${input}' is not a URL (expected e.g. https://api.octopus.energy/v1/)`);
  }
  if (url.username || url.password) {
    throw new BaseUrlError(`${source}: credentials in the URL are not accepted; use TARIFFS_API_KEY or --api-key-file`);
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) {
      throw new BaseUrlError(
        `${source}: plain http:// is refused for ${url.hostname}: the interface is HTTPS only ` +
          '(http is accepted only for loopback hosts such as 127.0.0.1 or localhost, for the sandbox)',
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new BaseUrlError(`${source}: unsupported scheme '${url.protocol}' (use https://)`);
  }
  url.search = '';
  url.hash = '';
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) path = `${path}/v1`;
  url.pathname = `${path}/`;
  return url;
}

const SECRET_PARAMS = /^(api[_-]?key|key|token|access[_-]?token|password|secret|authorization)$/i;

/** The URL as it may appear in logs and errors: no user info, no secret-looking query values. */
export function redactUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return '[unparseable URL]';
  }
  parsed.username = '';
  parsed.password = '';
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAMS.test(key)) parsed.searchParams.set(key, '[redacted]');
  }
  return parsed.toString();
}
