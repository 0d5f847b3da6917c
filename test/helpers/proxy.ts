// A real HTTP server in front of the sandbox that rewrites JSON pages: to play a server that
// ignores page_size, sends a `next` to another origin or back to itself, misstates `count`, or
// trickles a body one byte a second.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ProxyOptions {
  /** Drop page_size from forwarded requests (a server that does not honour it). */
  ignorePageSize?: boolean;
  /** Rewrite each page's JSON before sending it on. */
  rewrite?: (page: Record<string, unknown>, ownOrigin: string) => Record<string, unknown>;
  /** Send the body of matching requests (by path and query) one byte a second, never idle long. */
  trickle?: (path: string) => boolean;
}

export interface Proxy {
  baseUrl: string;
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startProxy(targetBaseUrl: string, options: ProxyOptions = {}): Promise<Proxy> {
  const target = new URL(targetBaseUrl);
  const requests: string[] = [];
  let origin = '';
  const server: Server = createServer(async (req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', target.origin);
    if (options.ignorePageSize) url.searchParams.delete('page_size');
    const upstream = await request(url, { method: req.method as 'GET', headers: { authorization: req.headers.authorization ?? '' } });
    let text = await upstream.body.text();
    if (upstream.statusCode === 200) {
      let page = JSON.parse(text) as Record<string, unknown>;
      // Links point back at the proxy, as a real server's would.
      text = JSON.stringify(page).split(target.origin).join(origin);
      page = JSON.parse(text) as Record<string, unknown>;
      if (options.rewrite) page = options.rewrite(page, origin);
      text = JSON.stringify(page);
    }
    if (options.trickle?.(req.url ?? '')) {
      const body = Buffer.from(text);
      res.writeHead(upstream.statusCode, { 'content-type': 'application/json', 'content-length': body.length });
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < body.length) res.write(body.subarray(sent, ++sent));
        else res.end();
      }, 1000);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(upstream.statusCode, { 'content-type': 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v1/`,
    origin,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
