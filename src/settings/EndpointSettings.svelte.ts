/**
 * The user's endpoint (base URL, key, model) on the main thread. The key never leaves this object
 * except inside a `start`/`resume`/`listModels` request to the agent worker, which uses it for
 * that one run; it is never written to checkpoints.
 */
import { DEFAULT_ROWS_PER_TOOL_OUTPUT, type EndpointSettings as Settings } from '../../workers/protocol/agent/wire';
import { browserStorage, loadEndpoint, saveEndpoint, type StorageAreas } from './persist';

export class EndpointSettings {
  baseUrl = $state('');
  apiKey = $state('');
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
      this.apiKey = saved.settings.apiKey;
      this.model = saved.settings.model;
      this.remember = saved.remember;
      this.contextTokens = saved.settings.contextTokens ?? null;
      this.noRawRows = saved.settings.noRawRows === true;
      this.rowsPerToolOutput = saved.settings.rowsPerToolOutput ?? DEFAULT_ROWS_PER_TOOL_OUTPUT;
    }
  }

  save(next: Settings & { remember: boolean }): void {
    this.baseUrl = next.baseUrl.trim();
    this.apiKey = next.apiKey.trim();
    this.model = next.model.trim();
    this.remember = next.remember;
    this.contextTokens = next.contextTokens ?? null;
    this.noRawRows = next.noRawRows === true;
    this.rowsPerToolOutput = next.rowsPerToolOutput ?? DEFAULT_ROWS_PER_TOOL_OUTPUT;
    const out = saveEndpoint(this.#areas, {
      settings: this.snapshot(),
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
    return s;
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
