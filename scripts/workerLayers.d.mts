// Types for workerLayers.mjs, for src/layering.test.ts and eslint.config.js, which check the graph it draws.
export interface ImportEdge {
  from: string;
  /** Repo-relative path, without the query. */
  to: string;
  /** How it is reached: an import, or a worker Vite builds (`?worker`, `new Worker(new URL(…))`). */
  spawn: boolean;
}
/** Any graph whose nodes map to their successors (a Map of counts or a Set). */
export type Graph = Map<string, { keys(): Iterable<string> }>;
export const ROOT: string;
export const WORKERS: string[];
export const ROOT_NODE: string;
export const AGENT_LAYERS: string[][];
export const LAYERS: Record<string, string[][] | undefined>;
export function productionFiles(dirs?: string[]): string[];
export function importsOf(file: string, text?: string): ImportEdge[];
export function graphAt(at: string, dirs?: string[]): { files: string[]; edges: ImportEdge[] };
export function folderOf(worker: string, path: string): string | null;
export function folderGraph(worker: string, files: readonly string[], edges: readonly ImportEdge[]): { files: Map<string, number>; graph: Map<string, Map<string, number>> };
export function foldersOnly(graph: Map<string, Map<string, number>>): Map<string, Map<string, number>>;
export function knotsOf(graph: Graph): string[][];
export function cyclesOf(graph: Graph): string[];
export function layerBreaks(graph: Map<string, Map<string, number>>, layers: readonly (readonly string[])[]): { from: string; to: string; imports: number }[];
export function draw(worker: string, files: readonly string[], edges: readonly ImportEdge[], options?: { layers?: boolean }): string;
