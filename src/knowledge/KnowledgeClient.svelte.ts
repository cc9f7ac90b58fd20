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
import { adoptDictionary, bindDictionaries, datasetFingerprint, type Binding } from '../../shared/knowledge/identity';

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
  /** The loaded datasets (from `watch`): what binds each dictionary to its content. */
  datasets = $state<DatasetInfo[]>([]);
  /** Each loaded dataset's own dictionary and what is offered to it (issue 32: by content, not name). */
  bindings = $derived<Map<string, Binding>>(bindDictionaries(Object.values(this.dictionaries), this.datasets));

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

  /** A dataset's own dictionary (draft or accepted), bound by content. */
  own(dataset: string): DataDictionary | undefined {
    return this.bindings.get(dataset)?.own;
  }

  /** A dictionary written for other content that the user may adopt for this dataset. */
  offered(dataset: string): Binding['offered'] {
    return this.bindings.get(dataset)?.offered;
  }

  /** Takes an offered dictionary as this dataset's (fitted to its columns), as a draft to review. */
  async adopt(dataset: string): Promise<boolean> {
    const offer = this.offered(dataset);
    const ds = this.datasets.find((d) => d.name === dataset);
    if (!offer || !ds) return false;
    const taken = adoptDictionary($state.snapshot(offer.dictionary) as DataDictionary, ds);
    return this.save({ ...taken, status: 'draft', source: `${offer.dictionary.source} (adopted from ${offer.dictionary.dataset})` });
  }

  async save(d: DataDictionary): Promise<boolean> {
    const ds = this.datasets.find((x) => x.name === d.dataset);
    // Stamped with the content it describes, so it follows a rename and no other file inherits it.
    const next: DataDictionary = { ...$state.snapshot(d), updated_at: nowIso(), ...(ds ? { fingerprint: datasetFingerprint(ds) } : {}) } as DataDictionary;
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
      if (!replace && this.own(dataset)?.status === 'accepted') return;
      await this.save(draft);
    } catch (e) {
      this.errors[dataset] = `The draft could not be written: ${messageOf(e)}`;
    } finally {
      delete this.drafting[dataset];
    }
  }

  /** Called with the dataset list whenever it changes: new datasets without a dictionary are drafted. */
  watch(datasets: readonly DatasetInfo[], ready: boolean): void {
    if (!ready || !this.loaded) return;
    this.datasets = [...datasets];
    const names = datasets.map((d) => d.name);
    queueMicrotask(() => void this.#followRenames());
    if (this.#known === null) {
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered.
      this.#known = new Set(names);
      return;
    }
    for (const name of names) {
      if (this.#known.has(name)) continue;
      this.#known.add(name);
      // Outside the caller's effect: the draft's own state changes must not re-run it.
      // Nothing is drafted over a dictionary that is its own (a rename) or offered to it (the user chooses).
      const b = this.bindings.get(name);
      if (!this.dictionaries[name] && !b?.own && !b?.offered && this.canDraft) queueMicrotask(() => void this.requestDraft(name));
    }
  }

  /**
   * A dictionary bound by content to a dataset under another name (the table was renamed) is
   * stored again under the new name, and the old key removed once nothing loaded has that name.
   */
  async #followRenames(): Promise<void> {
    const loaded = this.datasets.map((d) => d.name);
    for (const [name, b] of this.bindings) {
      const own = b.own;
      if (!own || this.dictionaries[name]?.fingerprint === own.fingerprint) continue;
      const old = Object.values(this.dictionaries).find((d) => d.fingerprint === own.fingerprint && d.dataset !== name);
      if (!old || loaded.includes(old.dataset) || this.dictionaries[name]) continue;
      try {
        await this.#store.putDictionary({ ...(own as DataDictionary) });
        await this.#store.deleteDictionary(old.dataset);
        this.dictionaries[name] = own;
        delete this.dictionaries[old.dataset];
      } catch (e) {
        this.errors[name] = `The dictionary could not follow the rename: ${messageOf(e)}`;
      }
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
