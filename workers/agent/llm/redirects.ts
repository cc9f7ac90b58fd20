/**
 * Model requests never follow a redirect. A 307 or 308 re-sends the request's body (the whole
 * conversation, the datasets' schemas, rows the model saw) to wherever the endpoint points, and a
 * 301/302 would move the request to an address the user never entered; the key is bound to the
 * base URL the user gave. So every request goes with `redirect: 'manual'`, and a redirect comes
 * back as an error in the provider's own shape (`{"error":{"message"}}`), which the failure
 * messages quote, naming the new address when the runtime shows it. A browser hides a manual
 * redirect's headers (an "opaqueredirect" response, https://fetch.spec.whatwg.org/#concept-filtered-response-opaque-redirect),
 * so there the message says how to find it; Node (the headless gauntlet) shows the Location.
 */

/** Marks a response that is our refusal, so a wrapper further out does not refuse it again. */
const REFUSED_HEADER = 'x-dataseer-redirect-refused';

/** The status an opaque redirect is reported with: its real 3xx code is hidden from scripts. */
const UNKNOWN_REDIRECT_STATUS = 300;

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/** The words of a refused redirect: what happened, where it pointed (if known), what to do. */
export function redirectMessage(requested: string, status: number | undefined, location: string | undefined): string {
  const code = status ? `HTTP ${status}` : 'a redirect';
  if (location) {
    return `The endpoint answered ${code}, redirecting ${requested} to ${location}. Model requests do not follow redirects (the request and the key would go to an address you did not enter), so nothing was sent there. If ${new URL(location).origin} is the endpoint's new address, put it as the Base URL in Settings.`;
  }
  return `The endpoint answered with a redirect (${code}) away from ${requested}. Model requests do not follow redirects (the request and the key would go to an address you did not enter), so nothing was sent there; the browser does not show where it pointed. Open the base URL in a browser tab to see its new address, and put that as the Base URL in Settings.`;
}

/** Whether a response is a redirect the caller did not follow. */
function isRedirect(res: Response): boolean {
  return res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400 && res.status !== 304);
}

/** `inner` that never follows a redirect and turns one into an error response saying so. */
export function refuseRedirects(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, { ...init, redirect: 'manual' });
    if (!isRedirect(res) || res.headers.has(REFUSED_HEADER)) return res;
    const requested = urlOf(input);
    const raw = res.type === 'opaqueredirect' ? null : res.headers.get('location');
    let location: string | undefined;
    try {
      location = raw ? new URL(raw, requested).href : undefined;
    } catch {
      location = undefined;
    }
    const status = res.status >= 300 && res.status < 400 ? res.status : undefined;
    // The redirect's own body is not read: it was meant for a client that follows.
    void res.body?.cancel().catch(() => undefined);
    const message = redirectMessage(requested, status, location);
    return new Response(JSON.stringify({ error: { message, type: 'redirect_refused', code: 'redirect_refused' } }), {
      status: status ?? UNKNOWN_REDIRECT_STATUS,
      headers: { 'content-type': 'application/json', [REFUSED_HEADER]: '1' },
    });
  };
}
