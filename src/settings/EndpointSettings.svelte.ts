/**
 * The user's endpoint (base URL, key, model) on the main thread. The key never leaves this object
 * except inside a `start`/`resume`/`listModels` request to the agent worker, which uses it for
 * that one run; it is never written to checkpoints. Keys are bound to the origin they were
 * entered for (see keyRing.ts): a request to another origin carries none.
 */
import { timeZoneSetting } from './timeZone.svelte';
import { DEFAULT_ROWS_PER_TOOL_OUTPUT, type EndpointSettings as Settings } from '../../protocol/agent/wire';
import { allKeys, keyFor, withKey, type KeyRing } from './keyRing';
import { browserStorage, loadEndpoint, saveEndpoint, type StorageAreas } from './persist';

export class EndpointSettings {
  baseUrl = $state('');
  /** Every key the user entered, by the origin it was entered for. */
  keys = $state<KeyRing>({});
  /** The key for the base URL's own origin; '' when none was entered for it. */
  readonly apiKey = $derived(keyFor(this.keys, this.baseUrl));
  model = $state('');
  remember = $state(false);
  /** Tokens a run may send before older turns are summarised; null for the model's default. */
  contextTokens = $state<number | null>(null);
  /** "No raw rows": only schemas, profiles and aggregates (≤ `rowsPerToolOutput` rows) reach the model. */
  noRawRows = $state(false);
  rowsPerToolOutput = $state(DEFAULT_ROWS_PER_TOOL_OUTPUT);
  /** Whether the settings dialog is open (the chat opens it when the key is refused). */
  dialogOpen = $state(false);
  /** Why the last save could not be stored, if it could not. */
  saveWarning = $state<string | null>(null);
  readonly configured = $derived(this.baseUrl.trim() !== '' && this.model.trim() !== '');

  #areas: StorageAreas;

  constructor(areas: StorageAreas = browserStorage()) {
    this.#areas = areas;
    const saved = loadEndpoint(areas);
    if (saved) {
      this.baseUrl = saved.settings.baseUrl;
      this.keys = withKey(saved.keys ?? {}, saved.settings.baseUrl, saved.settings.apiKey);
      this.model = saved.settings.model;
      this.remember = saved.remember;
      this.contextTokens = saved.settings.contextTokens ?? null;
      this.noRawRows = saved.settings.noRawRows === true;
      this.rowsPerToolOutput = saved.settings.rowsPerToolOutput ?? DEFAULT_ROWS_PER_TOOL_OUTPUT;
    }
  }

  /** `next.apiKey` is bound to `next.baseUrl`'s origin; `next.keys` are the other origins' keys. */
  save(next: Settings & { remember: boolean; keys?: KeyRing }): void {
    this.baseUrl = next.baseUrl.trim();
    this.keys = withKey(next.keys ?? this.keys, this.baseUrl, next.apiKey);
    this.model = next.model.trim();
    this.remember = next.remember;
    this.contextTokens = next.contextTokens ?? null;
    this.noRawRows = next.noRawRows === true;
    this.rowsPerToolOutput = next.rowsPerToolOutput ?? DEFAULT_ROWS_PER_TOOL_OUTPUT;
    const out = saveEndpoint(this.#areas, {
      settings: this.snapshot(),
      keys: this.keys,
      remember: this.remember,
    });
    this.saveWarning = out.ok ? null : out.message;
  }

  /** A plain copy for one run's request (no reactive proxy crosses postMessage). */
  snapshot(): Settings {
    const s: Settings = { baseUrl: this.baseUrl, apiKey: this.apiKey, model: this.model };
    if (this.contextTokens !== null) s.contextTokens = this.contextTokens;
    // Only what differs from the defaults, so a plain endpoint stays a plain object.
    if (this.noRawRows) s.noRawRows = true;
    if (this.rowsPerToolOutput !== DEFAULT_ROWS_PER_TOOL_OUTPUT) s.rowsPerToolOutput = this.rowsPerToolOutput;
    // Not kept with the endpoint: the time zone is its own setting (timeZone.svelte.ts).
    if (timeZoneSetting.chosen) s.timeZone = timeZoneSetting.chosen;
    return s;
  }

  /** Every key entered for any origin, for scrubbing stores and exports. */
  secrets(): string[] {
    return allKeys(this.keys);
  }

  /** A base URL the dialog starts from instead of the saved one (a preset picked in the setup card). */
  draftBaseUrl = $state<string | null>(null);

  open(baseUrl?: string): void {
    this.draftBaseUrl = baseUrl ?? null;
    this.dialogOpen = true;
  }

  close(): void {
    this.dialogOpen = false;
  }
}
