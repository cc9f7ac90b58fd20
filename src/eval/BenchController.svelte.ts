/**
 * The Evaluate view's benchmark state: the suite the user brought, its runs, the one running and
 * the score files imported to compare. A run opens a workspace of its own (a data worker that
 * keeps nothing, with its own agent), loads the suite's files there, runs the items, and disposes
 * of the workspace when it stops or ends — the user's datasets are never touched.
 */
import type { AgentEvent, EndpointSettings, PrivacyLogEntry, StartRunRequest } from '../../protocol/agent/wire';
import type { AgentMode } from '../../protocol/agent/final';
import { messageOf } from '../../shared/errors';
import { plural } from '../../shared/text';
import { leaveOut, newBenchRun, runBench } from './bench/runner';
import { parseScoreFile, type ScoreFile } from './bench/scoreFile';
import { readSuite, type PickedFile, type Suite } from './bench/suite';
import type { BenchStore } from './bench/store';
import type { BenchRun } from './bench/types';

/** A benchmark's own engines: load a file as its datasets, run the agent, then go away. */
export interface Workspace {
  /** Loads one file: the table names it became, or why it could not be loaded. */
  load(file: File): Promise<{ ok: true; tables: string[] } | { ok: false; message: string }>;
  runDetached(request: StartRunRequest, onEvent: (event: AgentEvent) => void, signal?: AbortSignal): Promise<string | null>;
  renameThread(threadId: string, title: string): Promise<unknown>;
  privacyLog(threadId: string): Promise<PrivacyLogEntry[]>;
  dispose(): void;
}

export class BenchController {
  suite = $state<Suite | null>(null);
  /** What reading the picked files said (the suite, or what is wrong). */
  importNote = $state<string | null>(null);
  reading = $state(false);
  runs = $state<BenchRun[]>([]);
  scores = $state<{ id: string; score: ScoreFile }[]>([]);
  selectedId = $state<string | null>(null);
  running = $state(false);
  /** Loading the files, then the item running. */
  phase = $state<{ kind: 'loading'; done: number; total: number } | { kind: 'item'; index: number; steps: number } | null>(null);
  error = $state<string | null>(null);
  readonly selected = $derived(this.runs.find((r) => r.id === this.selectedId) ?? this.runs.at(-1) ?? null);

  #abort: AbortController | null = null;
  #loaded: Promise<void> | null = null;

  constructor(
    private readonly openWorkspace: () => Workspace,
    private readonly store: BenchStore,
    /** Deletes a run's conversations with it: they read tables that only its workspace had. */
    private readonly deleteThread: (threadId: string) => Promise<void> = async () => {},
  ) {}

  load(): Promise<void> {
    this.#loaded ??= Promise.all([this.store.list(), this.store.scores()])
      .then(([runs, scores]) => {
        this.runs = runs.map((r) => (r.status === 'running' ? { ...r, status: 'stopped' } : r));
        this.scores = scores;
      })
      .catch((e: unknown) => {
        this.error = `Saved benchmark runs could not be read: ${messageOf(e)}`;
      });
    return this.#loaded;
  }

  async pick(files: readonly PickedFile[]): Promise<void> {
    if (files.length === 0) return;
    this.reading = true;
    this.error = null;
    try {
      const suite = await readSuite(files);
      if (typeof suite === 'string') {
        this.importNote = null;
        this.error = suite;
        return;
      }
      this.suite = suite;
      const left = suite.skipped.length ? ` · ${suite.skipped.length} left out (${suite.skipped.slice(0, 3).map((s) => `${s.id}: ${s.reason}`).join('; ')}${suite.skipped.length > 3 ? '; …' : ''})` : '';
      this.importNote = `${suite.name}: ${suite.items.length} ${suite.format === 'dabench' ? 'DABench' : 'generic'} questions over ${plural(Object.keys(suite.files).length, 'file')}${left}`;
    } catch (e) {
      this.error = `The files could not be read: ${messageOf(e)}`;
    } finally {
      this.reading = false;
    }
  }

  async start(mode: AgentMode, settings: EndpointSettings, limit?: number): Promise<void> {
    const suite = this.suite;
    if (!suite || this.running) return;
    const picked = limit && limit > 0 && limit < suite.items.length ? { ...suite, items: suite.items.slice(0, limit) } : suite;
    const run = newBenchRun(crypto.randomUUID(), picked, settings, mode, Date.now());
    // Kept until the run ends, so a stopped run resumes after a reload without picking again.
    await this.store.putSuite(run.id, $state.snapshot(picked) as Suite).catch(() => undefined);
    this.#upsert(run);
    await this.#go(run, picked, settings);
  }

  async resume(runId: string, settings: EndpointSettings): Promise<void> {
    const run = this.runs.find((r) => r.id === runId);
    if (!run || this.running) return;
    const suite = await this.store.suite(runId).catch(() => null);
    if (!suite) {
      this.error = 'This run’s question set is no longer stored; pick its files again and start a new run.';
      return;
    }
    await this.#go($state.snapshot(run) as BenchRun, suite, settings);
  }

  stop(): void {
    this.#abort?.abort();
  }

  async remove(runId: string): Promise<void> {
    if (this.running && this.selected?.id === runId) return;
    const run = this.runs.find((r) => r.id === runId);
    await this.store.remove(runId);
    this.runs = this.runs.filter((r) => r.id !== runId);
    for (const item of run?.items ?? []) await this.deleteThread(item.thread_id).catch(() => undefined);
  }

  /** Imports shared score files; says which could not be read. */
  async importScores(files: readonly File[]): Promise<void> {
    const bad: string[] = [];
    for (const f of files) {
      const s = parseScoreFile(await f.text());
      if (typeof s === 'string') {
        bad.push(`${f.name}: ${s}`);
        continue;
      }
      const id = crypto.randomUUID();
      await this.store.putScore(id, s).catch(() => undefined);
      this.scores = [...this.scores, { id, score: s }];
    }
    this.error = bad.length ? `Not imported: ${bad.join('; ')}` : null;
  }

  async removeScore(id: string): Promise<void> {
    await this.store.removeScore(id).catch(() => undefined);
    this.scores = this.scores.filter((s) => s.id !== id);
  }

  #upsert(run: BenchRun): void {
    const i = this.runs.findIndex((r) => r.id === run.id);
    this.runs = i < 0 ? [...this.runs, run] : this.runs.map((r) => (r.id === run.id ? run : r));
    this.selectedId = run.id;
  }

  async #go(run: BenchRun, suite: Suite, settings: EndpointSettings): Promise<void> {
    this.error = null;
    this.running = true;
    const abort = new AbortController();
    this.#abort = abort;
    this.selectedId = run.id;
    let ws: Workspace | null = null;
    try {
      ws = this.openWorkspace();
      const workspace = ws;
      // Plain (not reactive) on purpose: filled once before the items run, read by the runner.
      // eslint-disable-next-line svelte/prefer-svelte-reactivity
      const tables = new Map<string, string>();
      const names = Object.keys(suite.files);
      this.phase = { kind: 'loading', done: 0, total: names.length };
      const failed: [string, string][] = [];
      for (const [i, name] of names.entries()) {
        if (abort.signal.aborted) break;
        const loaded = await workspace.load(new File([suite.files[name] as Blob], name));
        if (loaded.ok && loaded.tables[0]) tables.set(name, loaded.tables[0]);
        else failed.push([name, loaded.ok ? 'it made no table' : loaded.message]);
        this.phase = { kind: 'loading', done: i + 1, total: names.length };
      }
      // A file that does not load costs its questions, not the run: they are left out, and said so.
      const planned = leaveOut(run, suite, failed.map(([f]) => f));
      if (failed.length) {
        this.error = `Left out ${plural(run.plan.length - planned.plan.length, 'question')}: ${failed.map(([f, m]) => `${f} could not be loaded (${m})`).join('; ')}.`;
        if (planned.plan.length === 0) throw new Error('no file of the question set could be loaded');
      }
      const final = await runBench(
        planned,
        suite,
        tables,
        settings,
        {
          run: (req, onEvent, signal) => workspace.runDetached(req, onEvent, signal),
          privacyLog: (id) => workspace.privacyLog(id),
          rename: async (id, title) => void (await workspace.renameThread(id, title)),
          store: this.store,
          newId: () => crypto.randomUUID(),
          now: () => Date.now(),
        },
        abort.signal,
        {
          onItemStart: (index) => (this.phase = { kind: 'item', index, steps: 0 }),
          onItemEvent: (index, e) => {
            const p = this.phase;
            if (p?.kind === 'item' && p.index === index && (e.type === 'tool_start' || e.type === 'node' || e.type === 'status')) this.phase = { ...p, steps: p.steps + 1 };
          },
          onItemDone: (_r, stored) => this.#upsert(stored),
        },
      );
      this.#upsert(final);
      if (final.status === 'done') await this.store.removeSuite(final.id).catch(() => undefined);
    } catch (e) {
      this.error = `The benchmark stopped: ${messageOf(e)}`;
      const stopped = { ...($state.snapshot(this.runs.find((r) => r.id === run.id) ?? run) as BenchRun), status: 'stopped' as const };
      this.#upsert(stopped);
      await this.store.put(stopped).catch(() => undefined);
    } finally {
      // The workspace goes with the run: its datasets, DuckDB, agent and Python workers end here.
      ws?.dispose();
      this.phase = null;
      this.running = false;
      this.#abort = null;
    }
  }
}
