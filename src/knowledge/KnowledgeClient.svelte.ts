/**
 * The page's side of the workspace's knowledge (issue 24): the data dictionaries and rules as
 * `$state`, read from and written to the same IndexedDB the agent worker reads at every run's
 * start. A dataset added while a model is configured gets its dictionary drafted at once (one
 * `data_dictionary` call through the agent worker); the draft waits for the user to accept it.
 * Trusted queries and metrics: queryKnowledge.svelte.ts; a rule's text and order: ruleEdits.ts.
 */
import type { DataDictionary, Metric, TrustedQuery, WorkspaceKnowledge, WorkspaceRule } from '../../protocol/agent/knowledge';
import type { DatasetInfo, QueryTablesOutcome } from '../../protocol/data';
import type { LastPromptFit, ModelContextView } from '../../protocol/agent/wire';
import { untrack } from 'svelte';
import { KnowledgeStore } from '../../shared/knowledge/store';
import { messageOf } from '../../shared/errors';
import { findAppRoot } from '../appContext';
import { QueryKnowledge } from './queryKnowledge.svelte';
import { autoDraftSetting } from './autoDraft.svelte';
import { conflictsIn, editedRule, movedRules, newRule, nowIso } from './ruleEdits';
import { adoptDictionary, bindDictionaries, datasetFingerprint, type Binding, type DatasetIdentity } from '../../shared/knowledge/identity';
import { ruleScope, scopeRule, type RuleScope } from '../../shared/knowledge/ruleScope';

function withoutKey<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
}

/** Datasets added together that are drafted without asking (one file, or an Excel file's few sheets). */
export const AUTO_DRAFT_AT_ONCE = 3;

export interface KnowledgeClientOptions {
  store?: KnowledgeStore;
  /** The model's draft for a dataset (AgentClient.draftDictionary with the current settings). */
  draft(dataset: string): Promise<DataDictionary>;
  /** Stops a dataset's draft in flight (AgentClient.cancelDraft; issue 37). */
  cancelDraft?(dataset: string): Promise<unknown>;
  /** What the next run's prompt carries of the workspace (AgentClient.modelContext). */
  preview?(): Promise<ModelContextView>;
  /** (issue 32) The datasets a query reads, by DuckDB's binder (DataClient.queryTables). */
  tablesOf?(sql: string): Promise<QueryTablesOutcome>;
  newId?: () => string;
}

export class KnowledgeClient extends QueryKnowledge {
  /**
   * Replaced whole on every change, never mutated (issue 37): a deep proxy made every reader of a
   * 2,000-column dictionary (the bindings, the editor's copy) track each of its ~16,000 fields.
   */
  dictionaries = $state.raw<Readonly<Record<string, DataDictionary>>>({});
  rules = $state<WorkspaceRule[]>([]);
  /** Datasets whose draft is being written. */
  drafting = $state<Record<string, boolean>>({});
  /** What became of a dataset's last draft when it is not an error (a Cancel). */
  draftNotes = $state<Record<string, string>>({});
  /** Drafts the user cancelled, until their request answers. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered.
  #cancelledDrafts = new Set<string>();
  /** Why the last draft, import or save of a dataset's dictionary failed. */
  errors = $state<Record<string, string>>({});
  rulesError = $state<string | null>(null);
  /** Per rule id: where it contradicts an accepted dictionary (said when it is added or edited). */
  ruleWarnings = $state<Record<string, string[]>>({});
  loaded = $state(false);
  /** Whether a question is being answered (kept current by App): the badge reads the last prompt once it ends. */
  agentRunning = $state(false);
  /** (issue 32) What the last prompt sent in this session carried of the workspace's knowledge. */
  lastPrompt = $state<LastPromptFit | null>(null);
  /** Sends a clarifying question's chosen answer as the next question (set by App); false when it could not. */
  answerClarification: ((text: string) => boolean) | null = null;
  /** Whether a model is configured, so drafts can be asked for (kept current by App). */
  canDraft = $state(false);
  /**
   * New datasets whose drafts wait for the user's one confirmation (issue 37: 51 files added at
   * once fired 50 draft calls, ~69k tokens, without asking). See PendingDrafts.svelte.
   */
  pendingDrafts = $state<string[]>([]);
  /** The loaded datasets (from `watch`): what binds each dictionary to its content. Replaced whole. */
  datasets = $state.raw<readonly DatasetInfo[]>([]);
  /** Each loaded dataset's own dictionary and what is offered to it (issue 32: by content, not name). */
  bindings = $derived.by<Map<string, Binding>>(() => {
    const dictionaries = Object.values(this.dictionaries);
    const datasets = this.datasets;
    // Both lists are replaced whole when anything in them changes: depending on them alone spares
    // tracking every column of every dataset (the fingerprints read them all; issue 37).
    return untrack(() => bindDictionaries(dictionaries, datasets.map((d) => this.#identity(d))));
  });
  /** Each dataset's identity copied once per entry: its fingerprint reads every column name. */
  #identities = new WeakMap<DatasetInfo, DatasetIdentity>();
  #identity(d: DatasetInfo): DatasetIdentity {
    let id = this.#identities.get(d);
    if (!id) this.#identities.set(d, (id = { name: d.name, fileName: d.fileName, sizeBytes: d.sizeBytes, columns: d.columns.map((c) => ({ name: c.name })) }));
    return id;
  }

  #store: KnowledgeStore;
  #options: KnowledgeClientOptions;
  #newId: () => string;
  /** Datasets present when the saved ones came back: those are not drafted on their own. */
  #known: Set<string> | null = null;
  #loading: Promise<void> | null = null;

  constructor(options: KnowledgeClientOptions) {
    const store = options.store ?? new KnowledgeStore();
    const newId = options.newId ?? (() => crypto.randomUUID());
    super(store, options.tablesOf, newId);
    this.#options = options;
    this.#store = store;
    this.#newId = newId;
  }

  load(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const [dicts, rules, trusted, metrics] = await Promise.all([this.#store.dictionaries(), this.#store.rules(), this.#store.trusted(), this.#store.metrics()]);
        this.dictionaries = Object.fromEntries(dicts.map((d) => [d.dataset, d]));
        this.rules = rules;
        this.trusted = trusted;
        this.metrics = metrics;
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
      this.dictionaries = { ...this.dictionaries, [next.dataset]: next };
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
    this.dictionaries = withoutKey(this.dictionaries, dataset);
  }

  /** Asks the model for a draft; it replaces a stored draft, never an accepted dictionary unless `replace`. */
  async requestDraft(dataset: string, replace = false): Promise<void> {
    if (this.drafting[dataset]) return;
    this.drafting[dataset] = true;
    delete this.errors[dataset];
    delete this.draftNotes[dataset];
    this.#cancelledDrafts.delete(dataset);
    try {
      const draft = await this.#options.draft(dataset);
      // Cancelled as it arrived: the user said no to it.
      if (this.#cancelledDrafts.has(dataset)) throw new Error('cancelled');
      await this.load();
      if (!replace && this.own(dataset)?.status === 'accepted') return;
      await this.save(draft);
    } catch (e) {
      if (this.#cancelledDrafts.has(dataset)) this.draftNotes[dataset] = 'Draft cancelled: the dictionary is as it was.';
      else this.errors[dataset] = `The draft could not be written: ${messageOf(e)}`;
    } finally {
      this.#cancelledDrafts.delete(dataset);
      delete this.drafting[dataset];
    }
  }

  /** Stops a dataset's draft (issue 37): its model call is aborted, nothing is saved, and it says so. */
  async cancelDraft(dataset: string): Promise<void> {
    if (!this.drafting[dataset]) return;
    this.#cancelledDrafts.add(dataset);
    await this.#options.cancelDraft?.(dataset).catch(() => undefined);
  }

  /**
   * Called with the dataset list whenever it changes: new datasets without a dictionary are
   * drafted. `restored`: the saved datasets are back (those are not new); `settled`: no load is in
   * flight, so files added together are seen together (and many are asked about once).
   */
  watch(datasets: readonly DatasetInfo[], restored: boolean, settled = true): void {
    if (!restored || !this.loaded) return;
    this.datasets = [...datasets];
    const names = datasets.map((d) => d.name);
    queueMicrotask(() => void this.#followRenames());
    queueMicrotask(() => void this.bindOldTrusted());
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
      // Nothing is drafted over a dictionary that is its own (a rename) or offered to it (the user chooses).
      const b = this.bindings.get(name);
      if (!this.dictionaries[name] && !b?.own && !b?.offered) fresh.push(name);
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
        this.dictionaries = { ...withoutKey(this.dictionaries, old.dataset), [name]: own };
      } catch (e) {
        this.errors[name] = `The dictionary could not follow the rename: ${messageOf(e)}`;
      }
    }
  }

  /** What the model sees of the workspace, or why it could not be read. */
  async preview(): Promise<ModelContextView | string> {
    if (!this.#options.preview) return 'Not available here.';
    try {
      const view = await this.#options.preview();
      if (view.last_prompt) this.lastPrompt = view.last_prompt;
      return view;
    } catch (e) {
      return messageOf(e);
    }
  }

  /** Reads what the last prompt carried (for the dictionary badge); errors leave it as it was. */
  async refreshLastPrompt(): Promise<void> {
    await this.preview();
  }

  /**
   * (issue 32) How the last prompt shortened a dataset's accepted dictionary, in words
   * ("shortened in the last prompt: 12 of 40 columns"), or undefined when it carried it whole.
   */
  shortenedInLastPrompt(dataset: string): string | undefined {
    const d = this.lastPrompt?.described[dataset];
    if (!d || d.shown >= d.total) return undefined;
    return `shortened in the last prompt: ${d.shown} of ${d.total} columns`;
  }

  /** Where a rule's text contradicts an accepted dictionary, in words (empty when it does not). */
  conflictsOf(text: string, dataset?: string): string[] {
    return conflictsIn(Object.values($state.snapshot(this.dictionaries) as Record<string, DataDictionary>), text, dataset);
  }

  async addRule(text: string, source: WorkspaceRule['source'] = 'typed', dataset?: string): Promise<boolean> {
    const base = text.trim() ? newRule(text, source, this.#newId(), this.rules) : null;
    if (!base) return false;
    const rule = dataset ? this.#scoped(base, dataset) : base;
    try {
      await this.#store.putRule(rule);
      this.rules = [...this.rules, rule];
      this.rulesError = null;
      this.#warn(rule);
      return true;
    } catch (e) {
      this.rulesError = `The rule could not be saved: ${messageOf(e)}`;
      return false;
    }
  }

  /** The rule scoped to a table by that table's content, so it follows a rename (issue 32). */
  #scoped(rule: WorkspaceRule, dataset: string): WorkspaceRule {
    const ds = this.datasets.find((d) => d.name === dataset);
    return ds ? scopeRule(rule, ds) : { ...scopeRule(rule, undefined), dataset };
  }

  /** Where a rule applies among the loaded datasets (by content; another file under its name is only offered). */
  scopeOf(rule: WorkspaceRule): RuleScope {
    return ruleScope(rule, this.datasets);
  }

  /** Applies a rule offered to a different file with its table's name: scoped to this file's content from now on. */
  applyRuleTo(id: string, dataset: string): Promise<boolean> {
    return this.updateRule(id, { dataset });
  }

  #warn(rule: WorkspaceRule): void {
    const scope = this.scopeOf(rule);
    const found = this.conflictsOf(rule.text, scope.kind === 'dataset' || scope.kind === 'offered' ? scope.dataset : rule.dataset);
    if (found.length) this.ruleWarnings[rule.id] = found;
    else delete this.ruleWarnings[rule.id];
  }

  /** Changes a rule's text and/or scope (absent `dataset`: the whole workspace). */
  async updateRule(id: string, change: { text?: string; dataset?: string | null }): Promise<boolean> {
    const old = this.rules.find((r) => r.id === id);
    if (!old) return false;
    let next = editedRule($state.snapshot(old) as WorkspaceRule, change.text);
    if (!next) return false;
    if (change.dataset === null) next = scopeRule(next, undefined);
    else if (change.dataset !== undefined) next = this.#scoped(next, change.dataset);
    try {
      await this.#store.putRule(next);
      const saved = next;
      this.rules = this.rules.map((r) => (r.id === id ? saved : r));
      this.rulesError = null;
      this.#warn(next);
      return true;
    } catch (e) {
      this.rulesError = `The rule could not be saved: ${messageOf(e)}`;
      return false;
    }
  }

  /** Moves a rule up (-1) or down (+1): the order is also the order rules get room in a tight prompt. */
  async moveRule(id: string, by: -1 | 1): Promise<void> {
    const renumbered = movedRules($state.snapshot(this.rules) as WorkspaceRule[], id, by);
    if (!renumbered) return;
    try {
      for (const r of renumbered) await this.#store.putRule(r);
      this.rules = renumbered;
    } catch (e) {
      this.rulesError = `The rules could not be reordered: ${messageOf(e)}`;
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
      metrics: $state.snapshot(this.metrics) as Metric[],
      trusted: $state.snapshot(this.trusted) as TrustedQuery[],
    };
  }
}

/** The workspace's knowledge, or undefined outside <App> (a component rendered on its own). */
export function findKnowledge(): KnowledgeClient | undefined {
  return findAppRoot()?.knowledge;
}
