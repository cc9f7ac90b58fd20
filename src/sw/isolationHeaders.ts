/**
 * The headers a static host cannot set. With them on the page, its workers and its own files,
 * the page is cross-origin isolated and may use SharedArrayBuffer (Pyodide's interrupt buffer).
 */
import { contentSecurityPolicy, policyHeaderFor } from './securityPolicy';

export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * A copy of a same-origin response with the isolation headers set, and the content security
 * policy of the page (`document`) or of the worker whose script it is (securityPolicy.ts).
 * Opaque responses (status 0) cannot be rebuilt and are returned as they are. Rebuilding also
 * drops the `redirected` flag, which the browser would otherwise reject for a navigation
 * answered by a service worker.
 */
export function withIsolationHeaders(response: Response, url?: string, document = false): Response {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  const policy = url === undefined ? (document ? contentSecurityPolicy('page') : undefined) : policyHeaderFor(new URL(url).pathname, document);
  if (policy) headers.set('Content-Security-Policy', policy);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
