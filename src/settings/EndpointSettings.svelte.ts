/**
 * The user's endpoint (base URL, key, model) on the main thread. The key never leaves this object
 * except inside a `start`/`resume`/`listModels` request to the agent worker, which uses it for
 * that one run; it is never written to checkpoints.
 */
import type { EndpointSettings as Settings } from '../../workers/protocol/agent';
import { browserStorage, loadEndpoint, saveEndpoint, type StorageAreas } from './persist';

export class EndpointSettings {
  baseUrl = $state('');
  apiKey = $state('');
  model = $state('');
  remember = $state(false);
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
    }
  }

  save(next: Settings & { remember: boolean }): void {
    this.baseUrl = next.baseUrl.trim();
    this.apiKey = next.apiKey.trim();
    this.model = next.model.trim();
    this.remember = next.remember;
    const out = saveEndpoint(this.#areas, {
      settings: { baseUrl: this.baseUrl, apiKey: this.apiKey, model: this.model },
      remember: this.remember,
    });
    this.saveWarning = out.ok ? null : out.message;
  }

  /** A plain copy for one run's request (no reactive proxy crosses postMessage). */
  snapshot(): Settings {
    return { baseUrl: this.baseUrl, apiKey: this.apiKey, model: this.model };
  }

  open(): void {
    this.dialogOpen = true;
  }

  close(): void {
    this.dialogOpen = false;
  }
}
