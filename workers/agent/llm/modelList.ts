/**
 * `Test connection`'s model list: one GET of the endpoint's `/models`, its failure put in the
 * provider's own words, and each listed model's context window remembered where the list states
 * one (local servers, OpenRouter), so requests to it are fitted from the first one on.
 */
import type { EndpointSettings, ModelListOutcome } from '../../../protocol/agent/wire';
import { networkAdvice } from '../../../shared/endpointPresets';
import { providerRequest } from './providerRequest';
import { messageOf } from '../../../shared/errors';
import { normaliseBaseUrl } from './chatModel';
import { windowFromModelEntry } from './contextWindow';
import type { EndpointProfileStore } from './endpointProfile';
import { readErrorBody } from './wire/errorBody';
import { refuseRedirects } from './redirects';

/** Past this many models (a hosted catalogue) windows are learned from refusals instead. */
const MAX_WINDOWS_STORED = 100;

export async function listModels(settings: Omit<EndpointSettings, 'model'>, profiles: Pick<EndpointProfileStore, 'update'>, doFetch: typeof fetch): Promise<ModelListOutcome> {
  try {
    const headers = new Headers();
    if (settings.apiKey) headers.set('authorization', `Bearer ${settings.apiKey}`);
    const url = providerRequest(`${normaliseBaseUrl(settings.baseUrl)}/models`, headers, settings.baseUrl);
    const res = await refuseRedirects(doFetch)(url, { headers });
    if (!res.ok) {
      // The provider's own words, whatever shape its error body has (llm/wire/errorBody.ts).
      const words = readErrorBody(await res.text().catch(() => ''), res.headers.get('content-type') ?? '');
      const said = words.message && !words.empty ? (words.html ? ` with a web page (“${words.message}”)` : `: “${words.message}”`) : '';
      return { ok: false, status: res.status, message: res.status === 401 || res.status === 403 ? 'The key was refused by the endpoint.' : `The endpoint answered HTTP ${res.status}${said}.` };
    }
    const body = (await res.json()) as { data?: { id?: unknown }[] };
    const entries = body.data ?? [];
    const models = entries.map((m) => m.id).filter((id): id is string => typeof id === 'string');
    if (entries.length <= MAX_WINDOWS_STORED) {
      for (const m of entries) {
        const window = windowFromModelEntry(m);
        if (window && typeof m.id === 'string') await profiles.update(settings.baseUrl, m.id, { contextWindow: window }).catch(() => undefined);
      }
    }
    return { ok: true, models: models.sort() };
  } catch (e) {
    return { ok: false, message: `The endpoint could not be reached (${messageOf(e)}). ${networkAdvice(settings.baseUrl)}` };
  }
}
