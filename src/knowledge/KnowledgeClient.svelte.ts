/**
 * The page's side of the workspace's knowledge (issue 24): the data dictionaries and rules as
 * `$state`, read from and written to the same IndexedDB the agent worker reads at every run's
 * start. A dataset added while a model is configured gets its dictionary drafted at once (one
 * `data_dictionary` call through the agent worker); the draft waits for the user to accept it.
 */
import { getContext, setContext } from 'svelte';
import type { DataDictionary, WorkspaceKnowledge, WorkspaceRule } from '../../protocol/agent/knowledge';
import type { DatasetInfo } from '../../protocol/data';
import type { ModelContextView } from '../../protocol/agent/wire';
import { KnowledgeStore } from '../../shared/knowledge/store';
import { messageOf } from '../../shared/errors';
import { autoDraftSetting } from './autoDraft.svelte';

/** Datasets added together that are drafted without asking (one file, or an Excel file's few sheets). */
export const AUTO_DRAFT_AT_ONCE = 3;

export interface KnowledgeClientOptions {
  store?: KnowledgeStore;
  /** The model's draft for a dataset (AgentClient.draftDictionary with the current settings). */
  draft(dataset: string): Promise<DataDictionary>;
  /** What the next run's prompt carries of the workspace (AgentClient.modelContext). */
  preview?(): Promise<ModelContextView>;
  newId?: () => string;
}

export class KnowledgeClient {
  dictionaries = $state<Record<string, DataDictionary>>({});
  rules = $state<WorkspaceRule[]>([]);
  /** Datasets whose draft is being written. */
  drafting = $state<Record<string, boolean>>({});
  /** Why the last draft, import or save of a dataset's dictionary failed. */
  errors = $state<Record<string, string>>({});
  rulesError = $state<string | null>(null);
  loaded = $state(false);
  /** Sends a clarifying question's chosen answer as the next question (set by App); false when it could not. */
  answerClarification: ((text: string) => boolean) | null = null;
  /** Whether a model is configured, so drafts can be asked for (kept current by App). */
  canDraft = $state(false);
  /**
   * New datasets whose drafts wait for the user's one confirmation (issue 37: 51 files added at
   * once fired 50 draft calls, ~69k tokens, without asking). See PendingDrafts.svelte.
   */
  pendingDrafts = $state<string[]>([]);

  #store: KnowledgeStore;
  #options: KnowledgeClientOptions;
  #newId: () => string;
  /** Datasets present when the saved ones came back: those are not drafted on their own. */
  #known: Set<string> | null = null;
  #loading: Promise<void> | null = null;

  constructor(options: KnowledgeClientOptions) {
    this.#options = options;
    this.#store = options.store ?? new KnowledgeStore();
    this.#newId = options.newId ?? (() => crypto.randomUUID());
  }

  load(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const [dicts, rules] = await Promise.all([this.#store.dictionaries(), this.#store.rules()]);
        this.dictionaries = Object.fromEntries(dicts.map((d) => [d.dataset, d]));
        this.rules = rules;
      } catch (e) {
        this.rulesError = `The saved knowledge could not be read: ${messageOf(e)}`;
      } finally {
        this.loaded = true;
      }
    })();
    return this.#loading;
  }

  async save(d: DataDictionary): Promise<boolean> {
    const next: DataDictionary = { ...$state.snapshot(d), updated_at: nowIso() } as DataDictionary;
    try {
      await this.#store.putDictionary(next);
      this.dictionaries[next.dataset] = next;
      delete this.errors[next.dataset];
      return true;
    } catch (e) {
      this.errors[next.dataset] = `The dictionary could not be saved: ${messageOf(e)}`;
      return false;
    }
  }

  accept(d: DataDictionary): Promise<boolean> {
    return this.save({ ...d, status: 'accepted' });
  }

  async remove(dataset: string): Promise<void> {
    await this.#store.deleteDictionary(dataset);
    delete this.dictionaries[dataset];
  }

  /** Asks the model for a draft; it replaces a stored draft, never an accepted dictionary unless `replace`. */
  async requestDraft(dataset: string, replace = false): Promise<void> {
    if (this.drafting[dataset]) return;
    this.drafting[dataset] = true;
    delete this.errors[dataset];
    try {
      const draft = await this.#options.draft(dataset);
      await this.load();
      if (!replace && this.dictionaries[dataset]?.status === 'accepted') return;
      await this.save(draft);
    } catch (e) {
      this.errors[dataset] = `The draft could not be written: ${messageOf(e)}`;
    } finally {
      delete this.drafting[dataset];
    }
  }

  /**
   * Called with the dataset list whenever it changes: new datasets without a dictionary are
   * drafted. `restored`: the saved datasets are back (those are not new); `settled`: no load is in
   * flight, so files added together are seen together (and many are asked about once).
   */
  watch(datasets: readonly DatasetInfo[], restored: boolean, settled = true): void {
    if (!restored || !this.loaded) return;
    const names = datasets.map((d) => d.name);
    if (this.#known === null) {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered.
      this.#known = new Set(names);
      return;
    }
    if (!settled) return;
    const fresh: string[] = [];
    for (const name of names) {
      if (this.#known.has(name)) continue;
      this.#known.add(name);
      if (!this.dictionaries[name]) fresh.push(name);
    }
    if (fresh.length === 0 || !this.canDraft || !autoDraftSetting.on) return;
    // A few datasets are drafted at once; more (or more while some wait) are asked about first.
    if (fresh.length <= AUTO_DRAFT_AT_ONCE && this.pendingDrafts.length === 0) {
      // Outside the caller's effect: the draft's own state changes must not re-run it.
      queueMicrotask(() => void this.#draftInTurn(fresh));
      return;
    }
    this.pendingDrafts = [...this.pendingDrafts, ...fresh];
  }

  /** Drafts the waiting datasets, one model call at a time. */
  confirmPendingDrafts(): Promise<void> {
    const names = this.pendingDrafts;
    this.pendingDrafts = [];
    return this.#draftInTurn(names);
  }

  dismissPendingDrafts(): void {
    this.pendingDrafts = [];
  }

  async #draftInTurn(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (this.dictionaries[name]) continue;
      await this.requestDraft(name);
    }
  }

  /** What the model sees of the workspace, or why it could not be read. */
  async preview(): Promise<ModelContextView | string> {
    if (!this.#options.preview) return 'Not available here.';
    try {
      return await this.#options.preview();
    } catch (e) {
      return messageOf(e);
    }
  }

  async addRule(text: string, source: WorkspaceRule['source'] = 'typed'): Promise<boolean> {
    const t = text.trim();
    if (!t) return false;
    const rule: WorkspaceRule = { id: this.#newId(), text: t.slice(0, 2000), created_at: nowIso(), source };
    try {
      await this.#store.putRule(rule);
      this.rules = [...this.rules, rule];
      this.rulesError = null;
      return true;
    } catch (e) {
      this.rulesError = `The rule could not be saved: ${messageOf(e)}`;
      return false;
    }
  }

  async deleteRule(id: string): Promise<void> {
    try {
      await this.#store.deleteRule(id);
      this.rules = this.rules.filter((r) => r.id !== id);
    } catch (e) {
      this.rulesError = `The rule could not be deleted: ${messageOf(e)}`;
    }
  }

  /** What exports carry: every accepted dictionary (the export keeps the used ones) and the rules. */
  forExport(): WorkspaceKnowledge {
    return {
      dictionaries: Object.values($state.snapshot(this.dictionaries) as Record<string, DataDictionary>).filter((d) => d.status === 'accepted'),
      rules: this.rules.map((r) => r.text),
    };
  }
}

const KEY = Symbol('dataseer:knowledge');

function nowIso(): string {
  return new Date(Date.now()).toISOString();
}

export function setKnowledge(client: KnowledgeClient): void {
  setContext(KEY, client);
}

/** The workspace's knowledge, or undefined outside <App> (a component rendered on its own). */
export function findKnowledge(): KnowledgeClient | undefined {
  return getContext<KnowledgeClient | undefined>(KEY);
}
