/**
 * The dev and preview (`npm start`) servers send what the service worker adds on static hosts:
 * the isolation headers on everything, and the content security policy of the page or of the
 * worker a script belongs to (securityPolicy.ts).
 */
import type { Connect, Plugin } from 'vite';
import { ISOLATION_HEADERS } from './isolationHeaders';
import { policyHeaderFor } from './securityPolicy';

function middleware(): Connect.NextHandleFunction {
  return (req, res, next) => {
    for (const [name, value] of Object.entries(ISOLATION_HEADERS)) res.setHeader(name, value);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const document = req.headers['sec-fetch-dest'] === 'document' || (req.headers.accept ?? '').includes('text/html');
    const policy = policyHeaderFor(url.pathname, document);
    if (policy) res.setHeader('Content-Security-Policy', policy);
    next();
  };
}

export function securityHeadersPlugin(): Plugin {
  return {
    name: 'dataseer-security-headers',
    configureServer(server) {
      server.middlewares.use(middleware());
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware());
    },
  };
}
