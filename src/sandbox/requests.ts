// Reading a sandbox request: its body (bounded), its path segments, and the origin links are built from.
import type { IncomingMessage } from 'node:http';

const MAX_BODY_BYTES = 1 << 20;

export function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Links are built from the Host the client used (like Django's build_absolute_uri). */
export function requestOrigin(req: IncomingMessage, address: { host: string; port: number } | undefined): string {
  const host = req.headers.host;
  if (host && /^[A-Za-z0-9.\-:[\]]+$/.test(host)) return `http://${host}`;
  return address ? originFor(address.host, address.port) : 'http://127.0.0.1';
}

export function originFor(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reachable.includes(':') ? `http://[${reachable}]:${port}` : `http://${reachable}:${port}`;
}

/** The request body as text; undefined when it exceeds MAX_BODY_BYTES. */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(chunk);
    });
    const done = () => resolve(tooBig ? undefined : Buffer.concat(chunks).toString('utf8'));
    req.on('end', done);
    req.on('close', done); // an aborted request: the handler then finds the response destroyed
    req.on('error', reject);
  });
}
