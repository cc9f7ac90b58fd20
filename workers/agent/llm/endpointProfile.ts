/**
 * What Dataseer has learned about one endpoint + model, kept in IndexedDB so a refusal or a
 * failed structured-output rung costs one extra request once, not on every question: the
 * parameters it refused, the structured-output rung that worked, and the capability check's
 * findings. Keyed by the normalised base URL (credentials stripped) and the model id.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { SETTINGS_DB, settingsView } from '../../../shared/db/settingsDb';
import type { MessageRule } from './wire/messageRules';

/** The structured-output ladder, most to least strict. */
export const STRUCTURED_RUNGS = ['json_schema', 'function_calling', 'json_object', 'text'] as const;
export type StructuredRung = (typeof STRUCTURED_RUNGS)[number];

/** How a model's reasoning arrives, when it has any. */
export type ReasoningShape = 'reasoning_content' | 'reasoning' | 'inline_tags' | 'none';

export type { CapabilityReport } from '../../../protocol/agent/wire';
import type { CapabilityReport } from '../../../protocol/agent/wire';

export interface EndpointProfile {
  /** Request parameters the endpoint refused (e.g. `temperature`, `stream_options`). */
  refusedParams: string[];
  /** The first structured-output rung that worked, per structured-output name or for all. */
  structuredRung?: StructuredRung;
  capabilities?: CapabilityReport;
  /** `text` once the endpoint refused tools with automatic choice: tools go by the text protocol (textTools.ts). */
  toolMode?: 'native' | 'text';
  /** The prompt size requests are fitted to, learned from a refusal or `/models` (contextWindow.ts). */
  contextWindow?: number;
  /** Rules about the messages the endpoint asked for in its refusals (wire/messageRules.ts). */
  messageRules?: MessageRule[];
  updatedAt: number;
}

export interface EndpointProfileStore {
  get(baseUrl: string, model: string): Promise<EndpointProfile | undefined>;
  /** Merges `patch` into the stored profile (refusedParams are unioned). */
  update(baseUrl: string, model: string, patch: Partial<Omit<EndpointProfile, 'updatedAt'>>): Promise<EndpointProfile>;
  clear(): Promise<void>;
}

/** The key a profile is stored under: no credentials, no trailing slash, no query. */
export function profileKey(baseUrl: string, model: string): string {
  let u = baseUrl.trim();
  try {
    const parsed = new URL(u);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    u = parsed.toString();
  } catch {
    // Not a URL: keep the text; the key is only an identifier.
  }
  return `${u.replace(/\/+$/, '')}#${model.trim()}`;
}

function merge(prev: EndpointProfile | undefined, patch: Partial<Omit<EndpointProfile, 'updatedAt'>>): EndpointProfile {
  const refused = new Set([...(prev?.refusedParams ?? []), ...(patch.refusedParams ?? [])]);
  const rules = new Set([...(prev?.messageRules ?? []), ...(patch.messageRules ?? [])]);
  return { ...prev, ...patch, refusedParams: [...refused].sort(), ...(rules.size ? { messageRules: [...rules].sort() } : {}), updatedAt: Date.now() };
}

/** For tests and hosts without IndexedDB. */
export class MemoryEndpointProfileStore implements EndpointProfileStore {
  #rows = new Map<string, EndpointProfile>();
  async get(baseUrl: string, model: string): Promise<EndpointProfile | undefined> {
    return this.#rows.get(profileKey(baseUrl, model));
  }
  async update(baseUrl: string, model: string, patch: Partial<Omit<EndpointProfile, 'updatedAt'>>): Promise<EndpointProfile> {
    const key = profileKey(baseUrl, model);
    const next = merge(this.#rows.get(key), patch);
    this.#rows.set(key, next);
    return next;
  }
  async clear(): Promise<void> {
    this.#rows.clear();
  }
}

interface ProfileDb extends DBSchema {
  endpoint_profiles: { key: string; value: EndpointProfile & { key: string } };
}

/** The database the profiles are kept in (the settings database). */
export const ENDPOINT_PROFILE_DB = SETTINGS_DB;

export class IdbEndpointProfileStore implements EndpointProfileStore {
  readonly dbName: string;

  constructor(options: { dbName?: string } = {}) {
    this.dbName = options.dbName ?? ENDPOINT_PROFILE_DB;
  }

  #open(): Promise<IDBPDatabase<ProfileDb>> {
    return settingsView<ProfileDb>(this.dbName).open();
  }

  async get(baseUrl: string, model: string): Promise<EndpointProfile | undefined> {
    const row = await (await this.#open()).get('endpoint_profiles', profileKey(baseUrl, model));
    if (!row) return undefined;
    const { key: _key, ...profile } = row;
    return profile;
  }

  async update(baseUrl: string, model: string, patch: Partial<Omit<EndpointProfile, 'updatedAt'>>): Promise<EndpointProfile> {
    const db = await this.#open();
    const key = profileKey(baseUrl, model);
    const tx = db.transaction('endpoint_profiles', 'readwrite');
    const prev = await tx.store.get(key);
    const next = merge(prev, patch);
    await tx.store.put({ ...next, key });
    await tx.done;
    return next;
  }

  async clear(): Promise<void> {
    await (await this.#open()).clear('endpoint_profiles');
  }
}
