/**
 * A static file server like GitHub Pages: no COOP/COEP headers, an `Access-Control-Allow-Origin: *`
 * like Pages sends, the build mounted under a sub-path. Used to prove the service worker alone
 * makes the app cross-origin isolated and usable offline. Also answers POST /echo with CORS, to
 * stand in for a user's LLM endpoint on another origin.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.csv': 'text/csv',
  '.zip': 'application/zip',
};

export interface PlainStaticServer {
  /** URL of the app, ending in `/`. */
  url: string;
  /** The port it listens on: a free one, so each Playwright worker has its own origin. */
  port: number;
  /** Paths of every GET the server answered, in order. */
  requests: string[];
  close: () => Promise<void>;
}

export interface PlainStaticServerOptions {
  root: string;
  host?: string;
  /** The sub-path the build is served under, e.g. `/dataseer/`. */
  prefix?: string;
}

function cors(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
}

function echo(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ received: Buffer.concat(chunks).toString('utf8'), authorization: req.headers.authorization ?? null }));
  });
}

export async function startPlainStaticServer({ root, host = '127.0.0.1', prefix = '/' }: PlainStaticServerOptions): Promise<PlainStaticServer> {
  const base = resolve(root);
  const requests: string[] = [];
  const server = createServer((req, res) => {
    cors(res);
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method === 'POST' && path === '/echo') return echo(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
    requests.push(path);
    if (!path.startsWith(prefix)) return void res.writeHead(404).end('not found');
    const rel = path.slice(prefix.length) || 'index.html';
    const file = normalize(join(base, rel.endsWith('/') ? `${rel}index.html` : rel));
    if (file !== base && !file.startsWith(base + sep)) return void res.writeHead(403).end();
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch {
      return void res.writeHead(404).end('not found');
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': size, 'Cache-Control': 'no-cache' });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, host, () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}${prefix}`,
    port,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
