/**
 * `Test connection`'s capability probe for one endpoint + model: the three tiny requests of
 * capabilities.ts on a model built as a run's is, and what they found stored in the endpoint's
 * profile, so the agent starts from it (tool mode, structured-output rung).
 */
import type { CapabilityReport, EndpointSettings } from '../../../protocol/agent/wire';
import { profileAdaptMemory } from './adaptFetch';
import { checkCapabilities } from './capabilities';
import { endpointModel } from './endpointModel';
import type { EndpointProfileStore } from './endpointProfile';
import { textToolsSummary } from './textTools';
import type { WireObservations } from './wire/normalise';
import { RULE_LABELS } from './wire/messageRules';

export interface ProbeOptions {
  /** Also ask about an image (a vision model). */
  images: boolean;
  fetch?: typeof fetch;
}

export async function probeCapabilities(settings: EndpointSettings, profiles: EndpointProfileStore, options: ProbeOptions): Promise<CapabilityReport> {
  const observed: WireObservations = { reasoning: 'none', recoveredCalls: 0 };
  let adapt: ReturnType<typeof profileAdaptMemory> | undefined;
  const { model, remember, rules } = await endpointModel(settings, profiles, (profile) => {
    // The learned window is kept; the tool mode is not, so native tool calls are asked again
    // (the server may have been restarted with them on).
    adapt = profileAdaptMemory(profiles, settings, profile ? { contextWindow: profile.contextWindow } : undefined);
    return { maxRetries: 0, timeoutMs: 60_000, ...(options.fetch ? { fetch: options.fetch } : {}), observed, adapt };
  });
  const checked = await checkCapabilities(model, observed, { images: options.images });
  // A refused key or an unknown model taught nothing about the model: nothing to remember.
  if (checked.failure || !adapt) return checked;
  const textTools = adapt.toolMode() === 'text';
  if (!textTools && checked.tools) adapt.setToolMode('native');
  const shown = textTools ? { ...checked, summary: textToolsSummary(checked.summary) } : checked;
  // What the endpoint's refusals taught about its messages (in this check or in earlier runs).
  const report = rules.size ? { ...shown, summary: `${shown.summary} · Adjusted to the endpoint: ${[...rules].map((r) => RULE_LABELS[r]).join('; ')}` } : shown;
  await remember({ capabilities: report, ...(report.structured !== 'none' ? { structuredRung: report.structured } : {}) });
  return report;
}
