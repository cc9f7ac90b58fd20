import { AZURE_API_VERSION, presetFor } from '../../../shared/endpointPresets';

/**
 * The URL and headers for a request to the endpoint, in the provider's own way: Azure wants the
 * key in `api-key` and an `api-version` query; Anthropic wants browser calls acknowledged. The
 * key goes only to the configured host.
 */
export function providerRequest(url: string, headers: Headers, baseUrl: string): string {
  const p = presetFor(baseUrl);
  if (p?.auth === 'azure') {
    const auth = headers.get('authorization');
    const key = auth?.replace(/^Bearer\s+/i, '');
    headers.delete('authorization');
    if (key && key !== 'not-needed') headers.set('api-key', key);
    const u = new URL(url);
    const fromBase = (() => {
      try {
        return new URL(baseUrl.trim()).searchParams.get('api-version');
      } catch {
        return null;
      }
    })();
    if (!u.searchParams.has('api-version')) u.searchParams.set('api-version', fromBase ?? AZURE_API_VERSION);
    return u.toString();
  }
  if (p?.name === 'Anthropic') headers.set('anthropic-dangerous-direct-browser-access', 'true');
  return url;
}
