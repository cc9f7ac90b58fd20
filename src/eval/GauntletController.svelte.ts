/**
 * The Evaluate view's state: the stored runs, the one running, and each item's progress. It
 * loads the sample tables the questions need, then runs the gauntlet through the agent client
 * (one detached run per item) and keeps the stored run and the view in step.
 */
import type { AgentEvent, EndpointSettings, PrivacyLogEntry, StartRunRequest } from '../../protocol/agent/wire';
import type { AgentMode } from '../../protocol/agent/final';
import expectedJson from './gauntlet/expected.json';
import type { ExpectedAnswer } from './gauntlet/expected';
import type { SampleTable } from './gauntlet/questions';
import { newRun, planItems, runGauntlet, selectQuestions, tablesFor, type Selection } from './gauntlet/runner';
import { IdbGauntletStore, type GauntletStore } from './gauntlet/store';
import type { GauntletRun } from './gauntlet/types';
import { messageOf } from '../../shared/errors';

const SAMPLE_FILE: Record<SampleTable, string> = { penguins: 'penguins.json', seattle_weather: 'seattle-weather.csv', cars: 'cars.json' };

export interface GauntletAgent {
  runDetached(request: StartRunRequest, onEvent: (event: AgentEvent) => void, signal?: AbortSignal): Promise<string | null>;
  renameThread(threadId: string, title: string): Promise<unknown>;
  privacyLog(threadId: string): Promise<PrivacyLogEntry[]>;
}

export interface GauntletData {
  start(): Promise<void>;
  readonly datasets: readonly { name: string }[];
  loadSample(file: string): Promise<string[]>;
  /** Any query: it answers only once saved datasets are restored. */
  query(sql: string, maxRows?: number): Promise<unknown>;
}

export type ItemState = { state: 'pending' } | { state: 'running'; steps: number; threadId: string } | { state: 'done' };

export class GauntletController {
  runs = $state<GauntletRun[]>([]);
  /** The run the report shows (the running one while a run is in progress). */
  selectedId = $state<string | null>(null);
  running = $state(false);
  /** Progress of the running item, by plan index (absent: pending or done per the run's items). */
  live = $state<{ index: number; steps: number; threadId: string } | null>(null);
  error = $state<string | null>(null);
  readonly selected = $derived(this.runs.find((r) => r.id === this.selectedId) ?? this.runs.at(-1) ?? null);

  #abort: AbortController | null = null;
  #store: GauntletStore;
  #loaded: Promise<void> | null = null;

  constructor(
    private readonly agent: GauntletAgent,
    private readonly data: GauntletData,
    store: GauntletStore = new IdbGauntletStore(),
  ) {
    this.#store = store;
  }

  load(): Promise<void> {
    this.#loaded ??= this.#store
      .list()
      .then((runs) => {
        // A run that was running when the page went away is stopped: resume picks it up.
        this.runs = runs.map((r) => (r.status === 'running' ? { ...r, status: 'stopped' } : r));
      })
      .catch((e: unknown) => {
        this.error = `Saved gauntlet runs could not be read: ${messageOf(e)}`;
      });
    return this.#loaded;
  }

  async #ensureTables(tables: readonly SampleTable[]): Promise<void> {
    await this.data.start();
    // Saved datasets are restored after the engine starts; wait for them, or a sample that is
    // already there would load again as `penguins_2`.
    await this.data.query('SELECT 1', 1);
    for (const t of tables) {
      if (this.data.datasets.some((d) => d.name === t)) continue;
      const names = await this.data.loadSample(SAMPLE_FILE[t]);
      if (!names.includes(t)) throw new Error(`The sample ${SAMPLE_FILE[t]} did not load as the table ${t}.`);
    }
  }

  async start(selection: Selection, modes: AgentMode[], repetitions: number, settings: EndpointSettings): Promise<void> {
    const questions = selectQuestions(selection);
    if (questions.length === 0 || modes.length === 0) {
      this.error = selection.kind === 'ids' ? `No gauntlet question has these ids: ${selection.ids.join(', ') || '(none given)'}.` : 'Pick at least one question and one mode.';
      return;
    }
    const run = newRun(crypto.randomUUID(), settings, planItems(questions, modes, repetitions), Date.now());
    this.#upsert(run);
    await this.#go(run, settings);
  }

  async resume(runId: string, settings: EndpointSettings): Promise<void> {
    const run = this.runs.find((r) => r.id === runId);
    if (!run) return;
    // A plain copy: IndexedDB cannot clone the view's reactive proxies.
    await this.#go($state.snapshot(run), settings);
  }

  stop(): void {
    this.#abort?.abort();
  }

  async remove(runId: string): Promise<void> {
    if (this.running && this.selected?.id === runId) return;
    await this.#store.remove(runId);
    this.runs = this.runs.filter((r) => r.id !== runId);
  }

  #upsert(run: GauntletRun): void {
    const i = this.runs.findIndex((r) => r.id === run.id);
    this.runs = i < 0 ? [...this.runs, run] : this.runs.map((r) => (r.id === run.id ? run : r));
    this.selectedId = run.id;
  }

  async #go(run: GauntletRun, settings: EndpointSettings): Promise<void> {
    if (this.running) return;
    this.error = null;
    this.running = true;
    const abort = new AbortController();
    this.#abort = abort;
    this.selectedId = run.id;
    try {
      await this.#ensureTables(tablesFor(run.plan));
      const agent = this.agent;
      const final = await runGauntlet(
        run,
        settings,
        {
          run: (req, onEvent, signal) => agent.runDetached(req, onEvent, signal),
          privacyLog: (threadId) => agent.privacyLog(threadId),
          rename: async (threadId, title) => void (await agent.renameThread(threadId, title)),
          store: this.#store,
          expected: expectedJson as Record<string, ExpectedAnswer>,
          newId: () => crypto.randomUUID(),
          now: () => Date.now(),
        },
        abort.signal,
        {
          onItemStart: (index, threadId) => (this.live = { index, steps: 0, threadId }),
          onItemEvent: (index, e) => {
            if (this.live?.index === index && (e.type === 'tool_start' || e.type === 'node' || e.type === 'status')) this.live = { ...this.live, steps: this.live.steps + 1 };
          },
          onItemDone: (_result, stored) => this.#upsert(stored),
        },
      );
      this.#upsert(final);
    } catch (e) {
      this.error = `The gauntlet stopped: ${messageOf(e)}`;
      const stopped = { ...$state.snapshot(this.runs.find((r) => r.id === run.id) ?? run), status: 'stopped' as const };
      this.#upsert(stopped);
      await this.#store.put(stopped).catch(() => undefined);
    } finally {
      this.live = null;
      this.running = false;
      this.#abort = null;
    }
  }

  itemState(run: GauntletRun, index: number): ItemState {
    if (this.live && this.running && this.selected?.id === run.id && this.live.index === index) return { state: 'running', steps: this.live.steps, threadId: this.live.threadId };
    return run.items.some((i) => i.index === index) ? { state: 'done' } : { state: 'pending' };
  }
}
