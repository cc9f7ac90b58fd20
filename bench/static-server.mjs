// A small static file server for the production build with the same cross-origin isolation
// headers as vite.config.ts, so the bench controls its own lifecycle (no child process to reap).
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.py': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.zip': 'application/zip',
  '.whl': 'application/zip',
};

function fileFor(roots, urlPath) {
  const path = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  // Longest prefix first so '/__bench/' wins over '/'.
  for (const [prefix, root] of [...roots].sort((a, b) => b[0].length - a[0].length)) {
    if (!path.startsWith(prefix)) continue;
    const base = resolve(root);
    let file = normalize(join(base, path.slice(prefix.length)));
    if (file !== base && !file.startsWith(base + sep)) return undefined;
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      if (statSync(file).isFile()) return file;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * @param {Map<string, string>} roots URL prefix (ending in '/') → directory
 * @param {number} port
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export function startStaticServer(roots, port) {
  const server = createServer((req, res) => {
    const file = fileFor(roots, req.url ?? '/');
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(file ? 405 : 404, HEADERS).end();
      return;
    }
    const size = statSync(file).size;
    res.writeHead(200, { ...HEADERS, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolvePromise({
        url: `http://127.0.0.1:${actualPort}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
