/**
 * The one way the agent worker builds a chat model for the user's endpoint + model (a run, the
 * capability check, a dictionary draft): settings are checked first, and whatever that pair
 * refused before (llm/endpointProfile.ts) is left out from the first request on, while a new
 * refusal is remembered for the next model built for it.
 */
import type { ChatOpenAICompletions } from '@langchain/openai';
import { EndpointSettingsSchema, type EndpointSettings } from '../../../protocol/agent/wire';
import { baseUrlProblem, createChatModel, type ChatModelOptions } from './chatModel';
import type { EndpointProfile, EndpointProfileStore } from './endpointProfile';
import type { MessageRule } from './wire/messageRules';

/** Throws the sentence the page shows when the settings cannot reach a model. */
export function checkSettings(settings: EndpointSettings): void {
  const parsed = EndpointSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error('Set the base URL and model in Settings first.');
  const problem = baseUrlProblem(settings.baseUrl);
  if (problem) throw new Error(problem);
}

export type ProfilePatch = Parameters<EndpointProfileStore['update']>[2];

export interface EndpointModel {
  model: ChatOpenAICompletions;
  /** What was learned about this endpoint + model before (undefined: nothing, or unreadable). */
  profile: EndpointProfile | undefined;
  /** Stores a finding about this endpoint + model; a failed write is not the run's problem. */
  remember(patch: ProfilePatch): Promise<void>;
  /** The message rules in force for it (learned before, and as its refusals teach them). */
  rules: ReadonlySet<MessageRule>;
}

/**
 * `options` gets the stored profile, so a caller can start from what it says (the tool mode, the
 * context window); `memory` is this module's to set.
 */
export async function endpointModel(
  settings: EndpointSettings,
  profiles: EndpointProfileStore,
  options: (profile: EndpointProfile | undefined) => Omit<ChatModelOptions, 'memory'> = () => ({}),
): Promise<EndpointModel> {
  const profile = await profiles.get(settings.baseUrl, settings.model).catch(() => undefined);
  const refused = new Set(profile?.refusedParams ?? []);
  const rules = new Set(profile?.messageRules ?? []);
  const remember = (patch: ProfilePatch) => profiles.update(settings.baseUrl, settings.model, patch).then(
    () => undefined,
    () => undefined,
  );
  const model = createChatModel(settings, {
    ...options(profile),
    memory: {
      refused,
      remember: (param) => {
        refused.add(param);
        void remember({ refusedParams: [param] });
      },
      rules,
      learnRule: (rule) => {
        rules.add(rule);
        void remember({ messageRules: [rule] });
      },
    },
  });
  return { model, profile, remember, rules };
}
