/**
 * The composition root: the one place the page builds its objects and wires them to each other —
 * the engines (createEngines.ts: the three clients and the mesh; a benchmark run gets engines of
 * its own from here too), the endpoint settings, knowledge, the notebook, the gauntlet and
 * benchmark controllers, the place in the URL and the workbench layout, and the reactions that
 * tie them together. `main.ts` calls `createAppRoot()` once and mounts `App.svelte` with it;
 * components receive what they need as props (the page's state is the `$state` fields of these
 * objects), and the few leaves deep in the tree read the same root through `appContext.ts`.
 */
import { untrack } from 'svelte';
import { createEngines, type Engines } from './createEngines';
import { EndpointSettings } from './settings/EndpointSettings.svelte';
import { keyScrub } from './settings/keyScrub';
import { KnowledgeClient } from './knowledge/KnowledgeClient.svelte';
import { NotebookController } from './notebook/NotebookController.svelte';
import { IdbNotebookStore } from './notebook/store';
import { GauntletController } from './eval/GauntletController.svelte';
import { IdbGauntletStore } from './eval/gauntlet/store';
import { BenchController, type Workspace } from './eval/BenchController.svelte';
import { IdbBenchStore } from './eval/bench/store';
import { loadPrivacyLog } from './privacy/privacyLog';
import { PlaceHistory } from './layout/PlaceHistory.svelte';
import { WorkbenchState } from './layout/WorkbenchState.svelte';
import { syncConversationPlace } from './layout/conversationPlace.svelte';
import type { Place, View } from './layout/place';
import { notebookHandoff, onHandoff } from './console/handoff.svelte';
import type { DataClient } from './data/DataClient.svelte';
import type { PythonClient } from './python/PythonClient.svelte';
import type { AgentClient } from './chat/AgentClient.svelte';
import { WorkbenchActions } from './shell/workbenchActions.svelte';

export interface AppRoot {
  engines: Engines;
  data: DataClient;
  python: PythonClient;
  agent: AgentClient;
  settings: EndpointSettings;
  knowledge: KnowledgeClient;
  notebook: NotebookController;
  gauntlet: GauntletController;
  bench: BenchController;
  places: PlaceHistory;
  layout: WorkbenchState;
  /** Page-wide notices the shell shows (`$state`). */
  notices: AppNotices;
  /** What picking a dataset, a column or a conversation does. */
  actions: WorkbenchActions;
  /** Brings the place's conversation into the chat (a link, Back, a reload). */
  followConversation(place: Place): Promise<void>;
  goView(view: View, mode?: 'push' | 'replace'): void;
  dispose(): void;
}

export class AppNotices {
  /** A dataset action that failed (remove). */
  actionError = $state<string | null>(null);
  /** What following a link could not do (a conversation this browser does not have). */
  place = $state<string | null>(null);
}

export interface AppRootOptions {
  /** Start Python only where the page's security policy is in force (see PythonClientOptions). */
  requireProtection: boolean;
}

export function createAppRoot(options: AppRootOptions): AppRoot {
  let root!: AppRoot;
  // The reactions below outlive no component: they end with `dispose`.
  const stopEffects = $effect.root(() => {
    root = compose(options);
  });
  const dispose = root.dispose;
  root.dispose = () => {
    stopEffects();
    dispose();
  };
  return root;
}

function compose(options: AppRootOptions): AppRoot {
  const engines = createEngines({ requireProtection: options.requireProtection });
  const { data, python, agent } = engines;
  const settings = new EndpointSettings();
  const scrubKeys = keyScrub(() => settings.secrets());

  const knowledge = new KnowledgeClient({ draft: (name) => agent.draftDictionary(settings.snapshot(), name), cancelDraft: (name) => agent.cancelDraft(name), preview: () => agent.modelContext(settings.snapshot()), tablesOf: (sql) => data.queryTables(sql) });
  knowledge.answerClarification = (text) => {
    if (!settings.configured || agent.running) return false;
    void agent.ask(text, settings.snapshot());
    return true;
  };
  void knowledge.load();
  $effect(() => {
    knowledge.canDraft = settings.configured;
    // Restored datasets are not new: only what the user adds once the restore is over is drafted.
    // Files added together are seen together once their loads end, so many are asked about once.
    knowledge.watch(data.datasets, data.ready && data.restoring.length === 0, data.loads.length === 0);
  });
  // Once a run ends, the dictionary badge reads again what its last prompt carried (issue 32).
  $effect(() => {
    knowledge.agentRunning = agent.running;
  });

  const notebook = new NotebookController({ data, python, store: new IdbNotebookStore(undefined, scrubKeys) });
  const gauntlet = new GauntletController(
    {
      runDetached: (req, onEvent, signal) => agent.runDetached(req, onEvent, signal),
      renameThread: (id, title) => agent.renameThread(id, title),
      privacyLog: (id) => loadPrivacyLog(agent, id),
    },
    data,
    new IdbGauntletStore(undefined, scrubKeys),
  );
  // A brought benchmark runs in engines of its own (a data worker that keeps nothing), made per run.
  const openWorkspace = (): Workspace => {
    const ws = createEngines({ requireProtection: options.requireProtection, workspace: true });
    return {
      load: async (file) => {
        await ws.data.start();
        const tables = await ws.data.loadFiles([file]);
        const error = [...ws.data.errors].reverse().find((e) => e.fileName === file.name);
        return tables.length ? { ok: true, tables } : { ok: false, message: error?.message ?? 'it made no table' };
      },
      runDetached: (req, onEvent, signal) => ws.agent.runDetached(req, onEvent, signal),
      renameThread: (id, title) => ws.agent.renameThread(id, title),
      privacyLog: (id) => loadPrivacyLog(ws.agent, id),
      dispose: () => ws.dispose(),
    };
  };
  const bench = new BenchController(openWorkspace, new IdbBenchStore(undefined, scrubKeys), (id) => agent.deleteThread(id));

  const places = new PlaceHistory();
  const layout = new WorkbenchState(places);
  const notices = new AppNotices();
  const goView = (view: View, mode: 'push' | 'replace' = 'push') => layout.goView(view, mode);
  const actions = new WorkbenchActions({ data, agent, places, layout, notices });
  const followConversation = syncConversationPlace(places, agent, (text) => (notices.place = text));

  // The newest answer with a chart: the work pane steps aside for it (once per answer; a work view
  // or the pane's own button brings the pane back).
  const chartAnswer = $derived.by(() => {
    const last = agent.turns.at(-1);
    return last?.final?.figures?.length ? last.id : null;
  });
  $effect(() => {
    if (chartAnswer) untrack(() => layout.yieldToChart());
  });

  // "Open in console": the console fills and focuses its editor while its tab may still be hidden
  // (focus does not stick to a hidden element): once the tab is up, the editor gets the focus.
  onHandoff((h) => {
    goView(h.target);
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`#view-panel-${h.target} [contenteditable="true"]`)?.focus());
  });

  // "Open in notebook": the step's code becomes the notebook's last cell.
  onHandoff(
    (h) => {
      notebook.add(h.target, h.code);
      goView('notebook');
    },
    undefined,
    notebookHandoff,
  );

  // The data worker starts now, before the first paint: spawning it costs the main thread little,
  // and DuckDB's download and compile then overlap the page's own start (issue 15, cold start).
  data.start().catch(() => {});

  return {
    engines,
    data,
    python,
    agent,
    settings,
    knowledge,
    notebook,
    gauntlet,
    bench,
    places,
    layout,
    notices,
    actions,
    followConversation,
    goView,
    dispose() {
      places.dispose();
      engines.dispose();
    },
  };
}
