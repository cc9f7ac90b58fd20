/**
 * The house's layering, checked over every production import (eslint.config.js says the same per
 * file; this test sees the whole graph):
 * - protocol/ (the wire types and RPC runtime) imports only itself;
 * - shared/ imports only protocol/ and shared/;
 * - the page (src/) reaches a worker only through the entry file Vite spawns, never its internals;
 * - a worker never imports the page or another worker (what two sides need lives in shared/);
 * - the top-level areas form no cycle, nor do src/ feature folders;
 * - production code never imports test code (testing/ folders, *.test, e2e/);
 * - a worker's subfolders import each other without cycles;
 * - workers/agent keeps its entry alone at the root and its folders in the layers AGENT_LAYERS
 *   declares (scripts/workerLayers.mjs: the same graph, drawn by `node scripts/workerLayers.mjs`).
 */
import { describe, expect, it } from 'vitest';
import {
  AGENT_LAYERS,
  ROOT_NODE,
  WORKERS,
  cyclesOf,
  folderGraph,
  foldersOnly,
  importsOf,
  layerBreaks,
  productionFiles,
  type ImportEdge as Edge,
} from '../scripts/workerLayers.mjs';

const files = productionFiles();
const edges = files.flatMap((f) => importsOf(f));

/** The top-level area a path belongs to: protocol, shared, src, workers/<name>, or another root. */
function area(p: string): string {
  const [top = '', second = ''] = p.split('/');
  return top === 'workers' ? `workers/${second}` : top;
}

const show = (list: Edge[]) => list.map((e) => `${e.from} → ${e.to}`);

describe('layering', () => {
  it('has production files to check', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.startsWith('protocol/'))).toBe(true);
  });

  it('protocol/ imports only protocol/', () => {
    expect(show(edges.filter((e) => e.from.startsWith('protocol/') && !e.to.startsWith('protocol/')))).toEqual([]);
  });

  it('shared/ imports only protocol/ and shared/', () => {
    expect(show(edges.filter((e) => e.from.startsWith('shared/') && !/^(protocol|shared)\//.test(e.to)))).toEqual([]);
  });

  it('src/ reaches a worker only through the entry file Vite spawns', () => {
    const entry = /^workers\/[^/]+\/[^/]+\.worker\.ts$/;
    const bad = edges.filter((e) => e.from.startsWith('src/') && e.to.startsWith('workers/') && !(e.spawn && entry.test(e.to)));
    expect(show(bad)).toEqual([]);
    // The rule must see every spawn, or it checks nothing: one per worker, plus DuckDB's own
    // worker, which the page starts first on a repeat visit (src/engines/early.ts).
    expect(edges.filter((e) => e.from.startsWith('src/') && e.spawn && entry.test(e.to)).map((e) => e.to).sort()).toEqual([
      'workers/agent/agent.worker.ts',
      'workers/data/data.worker.ts',
      'workers/data/duckdb-browser-cached.worker.ts',
      'workers/decode/decode.worker.ts',
      'workers/parse/parse.worker.ts',
      'workers/python/python.worker.ts',
    ]);
  });

  it('a worker imports only itself, protocol/ and shared/ (never the page, never another worker)', () => {
    const bad = edges.filter((e) => e.from.startsWith('workers/') && area(e.to) !== area(e.from) && !/^(protocol|shared)\//.test(e.to));
    expect(show(bad)).toEqual([]);
  });

  it('the top-level areas form no cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      const a = area(e.from);
      const b = area(e.to);
      if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    expect([...graph.keys()].sort()).toEqual(expect.arrayContaining(['shared', 'src', 'workers/agent', 'workers/data', 'workers/python']));
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('production code never imports test code', () => {
    expect(show(edges.filter((e) => /(^|\/)testing\/|\.test(\.ts)?$|^e2e\//.test(e.to)))).toEqual([]);
  });

  it("a worker's subfolders import each other without cycles", () => {
    const cycles = WORKERS.flatMap((w) => cyclesOf(foldersOnly(folderGraph(w, files, edges).graph)).map((c) => `workers/${w}: ${c}`));
    expect(cycles).toEqual([]);
    // The check sees a knot when there is one (the agent's threads ⇄ checkpoint before #36).
    expect(cyclesOf(new Map([['checkpoint', new Set(['threads'])], ['threads', new Set(['checkpoint', 'store'])], ['store', new Set<string>()]]))).toEqual(['checkpoint → threads → checkpoint']);
  });

  describe('workers/agent layers', () => {
    const { graph } = folderGraph('agent', files, edges);

    it('keeps only its entry at the root', () => {
      expect(files.filter((f) => /^workers\/agent\/[^/]+$/.test(f))).toEqual(['workers/agent/agent.worker.ts']);
    });

    it('places every folder in one declared layer, and declares only folders that exist', () => {
      const declared = AGENT_LAYERS.flat();
      const folders = [...graph.keys()].filter((f) => f !== ROOT_NODE).sort();
      expect(folders.length).toBeGreaterThan(8);
      expect([...declared].sort()).toEqual(folders);
    });

    it('imports only down the layers: never a folder beside it, above it, or the root', () => {
      expect(layerBreaks(graph, AGENT_LAYERS)).toEqual([]);
    });

    it('catches a folder that imports up, sideways or the root (the rule is not vacuous)', () => {
      const bad = new Map(graph);
      bad.set('core', new Map([['graph', 1]]));
      bad.set('llm', new Map([['tools', 1], [ROOT_NODE, 1]]));
      expect(layerBreaks(bad, AGENT_LAYERS)).toEqual(
        expect.arrayContaining([
          { from: 'core', to: 'graph', imports: 1 },
          { from: 'llm', to: 'tools', imports: 1 },
          { from: 'llm', to: ROOT_NODE, imports: 1 },
        ]),
      );
    });
  });

  it('src/ feature folders import each other without cycles', () => {
    const feature = (p: string) => (p.split('/').length > 2 ? p.split('/')[1] : null);
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      if (!e.from.startsWith('src/') || !e.to.startsWith('src/')) continue;
      const a = feature(e.from);
      const b = feature(e.to);
      if (!a || !b || a === b) continue;
      graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    expect(cyclesOf(graph)).toEqual([]);
  });
});

/**
 * Layers inside the data worker, lowest first: a file imports only its own layer and the layers
 * below it (loaders/ and checks/ share a rank and never import each other). The entry files
 * (data.worker.ts, DuckDB's own worker) sit on top; testing/ is test code.
 */
const DATA_LAYERS: readonly { folder: string; rank: number; holds: string }[] = [
  { folder: 'engine', rank: 0, holds: 'DuckDB: boot, the engine slice, the queue, memory budget, SQL lexing, judging and running' },
  { folder: 'loaders', rank: 1, holds: 'a file → a table: sniffing, the CSV/Arrow/Parquet/Excel/JSON readers' },
  { folder: 'checks', rank: 1, holds: 'what a load may have got wrong (CSV, table, sheet checks), console assessment, profiles' },
  { folder: 'host', rank: 2, holds: 'the requests: HostContext, loading, re-reads, storage, restore, list changes, the peer port' },
];
const DATA_ENTRIES = ['workers/data/data.worker.ts', 'workers/data/duckdb-browser-cached.worker.ts'];

describe('layers inside workers/data', () => {
  const layerOf = (p: string) => DATA_LAYERS.find((l) => p.startsWith(`workers/data/${l.folder}/`));
  const dataFiles = files.filter((f) => f.startsWith('workers/data/'));

  it('every production file is in a layer folder or is an entry', () => {
    expect(dataFiles.filter((f) => !layerOf(f) && !DATA_ENTRIES.includes(f))).toEqual([]);
    expect(DATA_LAYERS.every((l) => dataFiles.some((f) => f.startsWith(`workers/data/${l.folder}/`)))).toBe(true);
  });

  it('a layer imports only itself and the layers below it; nothing imports an entry but the page', () => {
    const bad = edges.filter((e) => {
      if (!e.from.startsWith('workers/data/') || !e.to.startsWith('workers/data/')) return false;
      const from = layerOf(e.from);
      const to = layerOf(e.to);
      if (!from) return !DATA_ENTRIES.includes(e.from) || !to; // an entry imports the layers only
      if (e.spawn && DATA_ENTRIES.includes(e.to)) return false; // DuckDB's worker, started by URL (engine/duckdbBoot.ts)
      if (!to) return true;
      return to.folder !== from.folder && to.rank >= from.rank;
    });
    expect(show(bad)).toEqual([]);
  });

  it('the layer folders form no cycle', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      const a = layerOf(e.from)?.folder;
      const b = layerOf(e.to)?.folder;
      if (a && b && a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    expect(cyclesOf(graph)).toEqual([]);
  });
});
