/**
 * Where the endpoint settings live: localStorage when the user chose "Remember on this device",
 * otherwise sessionStorage (gone when the tab closes). Saving to one clears the other, so a key
 * the user stopped remembering does not linger on disk.
 */
import type { EndpointSettings } from '../../protocol/agent/wire';
import { messageOf } from '../../shared/errors';
import { keyFor, parseRing, withKey, type KeyRing } from './keyRing';

export const STORAGE_KEY = 'dataseer:endpoint';
/** The most rows per tool output the setting accepts (what the protocol schema allows). */
export const MAX_ROWS_PER_TOOL_OUTPUT = 10_000;

/** The two Web Storage areas (either may be missing or throw, e.g. storage disabled). */
export interface StorageAreas {
  local: Storage | null;
  session: Storage | null;
}

export interface SavedEndpoint {
  /** `apiKey` is the key bound to `baseUrl`'s origin ('' when none was entered for it). */
  settings: EndpointSettings;
  /** Every key by the origin it was entered for (stored; `settings.apiKey` is bound on save). */
  keys?: KeyRing;
  remember: boolean;
}

export function browserStorage(): StorageAreas {
  const get = (name: 'localStorage' | 'sessionStorage'): Storage | null => {
    try {
      return typeof globalThis[name] === 'undefined' ? null : globalThis[name];
    } catch {
      return null;
    }
  };
  return { local: get('localStorage'), session: get('sessionStorage') };
}

function parse(text: string | null): { settings: EndpointSettings; keys: KeyRing } | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null) return null;
    const o = v as Record<string, unknown>;
    const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
    // A key saved before keys were bound to origins belonged to the base URL saved with it.
    const keys = 'keys' in o ? parseRing(o.keys) : withKey({}, str('baseUrl'), str('apiKey'));
    const out: EndpointSettings = { baseUrl: str('baseUrl'), apiKey: keyFor(keys, str('baseUrl')), model: str('model') };
    const tokens = o.contextTokens;
    if (typeof tokens === 'number' && Number.isInteger(tokens) && tokens > 0) out.contextTokens = tokens;
    if (o.noRawRows === true) out.noRawRows = true;
    const rows = o.rowsPerToolOutput;
    if (typeof rows === 'number' && Number.isInteger(rows) && rows >= 0 && rows <= MAX_ROWS_PER_TOOL_OUTPUT) out.rowsPerToolOutput = rows;
    return { settings: out, keys };
  } catch {
    return null;
  }
}

function read(area: Storage | null): string | null {
  try {
    return area?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** The saved settings, the session's copy first (it is the newer choice when both exist). */
export function loadEndpoint(areas: StorageAreas): SavedEndpoint | null {
  const session = parse(read(areas.session));
  if (session) return { ...session, remember: false };
  const local = parse(read(areas.local));
  if (local) return { ...local, remember: true };
  return null;
}

/** Saves to the chosen area and removes any copy from the other; an error when storage refused. */
export function saveEndpoint(areas: StorageAreas, saved: SavedEndpoint): { ok: true } | { ok: false; message: string } {
  const [target, other] = saved.remember ? [areas.local, areas.session] : [areas.session, areas.local];
  try {
    other?.removeItem(STORAGE_KEY);
    if (!target) return { ok: false, message: 'This browser does not allow storing settings; they last until the page is reloaded.' };
    // The key is stored only under its origin, never beside the base URL on its own.
    const { apiKey, ...rest } = saved.settings;
    target.setItem(STORAGE_KEY, JSON.stringify({ ...rest, keys: withKey(saved.keys ?? {}, rest.baseUrl, apiKey) }));
    return { ok: true };
  } catch (e) {
    return { ok: false, message: `The settings could not be stored (${messageOf(e)}); they last until the page is reloaded.` };
  }
}
