/**
 * The page's side of the parse worker (protocol/parse.ts): imports are read and parsed there, so
 * a big dictionary or notebook never blocks the page. The worker starts on the first import and
 * stays for the next; Cancel ends it (a parse cannot be interrupted otherwise), and the next
 * import starts a fresh one. Every outcome is a value, a crash and a Cancel included.
 */
import type { Endpoint } from '../../protocol/rpc';
import { RpcClient } from '../../protocol/rpcClient';
import type { NotebookParseOutcome, ParseEvent, ParseFailure, ParseRequests, ProjectParseOutcome } from '../../protocol/parse';

/** What a worker must offer the client: messages, and an end. */
export interface ParseWorkerLike extends Endpoint {
  terminate(): void;
  addEventListener(type: 'message' | 'error', listener: (ev: MessageEvent & ErrorEvent) => void): void;
}

export type ParseProgress = { stage: 'reading'; loaded: number; total: number } | { stage: 'parsing'; done?: number; of?: number };

export interface ParseOptions {
  onProgress?: (p: ParseProgress) => void;
  signal?: AbortSignal;
}

type Job = keyof ParseRequests & string;
type Payload<K extends Job> = Omit<ParseRequests[K]['req'], 'jobId'>;

const CANCELLED: ParseFailure = { ok: false, message: 'Cancelled.', cancelled: true };

export class ParseClient {
  readonly #spawn: () => ParseWorkerLike;
  #worker: ParseWorkerLike | undefined;
  #rpc: RpcClient<ParseRequests, ParseEvent> | undefined;
  #progress = new Map<string, (p: ParseProgress) => void>();
  #seq = 0;

  constructor(spawn: () => ParseWorkerLike) {
    this.#spawn = spawn;
  }

  /** A dictionary file, or a dbt project's files, read for a dataset (its metrics translated, not checked). */
  project(payload: Payload<'project'>, options: ParseOptions = {}): Promise<ProjectParseOutcome> {
    return this.#run('project', payload, options);
  }

  notebook(payload: Payload<'notebook'>, options: ParseOptions = {}): Promise<NotebookParseOutcome> {
    return this.#run('notebook', payload, options);
  }

  /** Ends the worker (pending parses end as cancelled). */
  dispose(): void {
    this.#end('The parse worker was closed.');
  }

  #connect(): RpcClient<ParseRequests, ParseEvent> {
    if (this.#rpc) return this.#rpc;
    const worker = this.#spawn();
    const rpc = new RpcClient<ParseRequests, ParseEvent>(worker, (e) => {
      if (e.type !== 'progress') return;
      const say = this.#progress.get(e.jobId);
      if (!say) return;
      if (e.stage === 'reading') say({ stage: 'reading', loaded: e.loaded, total: e.total });
      else say(e.of !== undefined && e.done !== undefined ? { stage: 'parsing', done: e.done, of: e.of } : { stage: 'parsing' });
    });
    worker.addEventListener('error', (ev) => {
      // A crash (out of memory on a huge file, say) fails what it held; the next import starts anew.
      if (this.#worker === worker) this.#end(`The import stopped: ${ev.message || 'the parse worker failed'}.`);
    });
    this.#worker = worker;
    this.#rpc = rpc;
    return rpc;
  }

  #end(reason: string): void {
    const worker = this.#worker;
    const rpc = this.#rpc;
    this.#worker = undefined;
    this.#rpc = undefined;
    worker?.terminate();
    rpc?.dispose(reason);
  }

  async #run<K extends Job>(type: K, payload: Payload<K>, options: ParseOptions): Promise<ParseRequests[K]['res']> {
    if (options.signal?.aborted) return CANCELLED;
    const jobId = `parse-${++this.#seq}`;
    const rpc = this.#connect();
    if (options.onProgress) this.#progress.set(jobId, options.onProgress);
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      // The only way to stop a parse that is running: end its worker.
      this.#end('Cancelled.');
    };
    options.signal?.addEventListener('abort', onAbort);
    try {
      return await rpc.call(type, { ...payload, jobId } as ParseRequests[K]['req']);
    } catch (e) {
      if (cancelled) return CANCELLED;
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.#progress.delete(jobId);
    }
  }
}

let shared: ParseClient | undefined;

/** The page's one parse client, its worker spawned on first use. */
export async function parseClient(): Promise<ParseClient> {
  if (shared) return shared;
  const { spawnParseWorker } = await import('../engines/spawn');
  shared ??= new ParseClient(spawnParseWorker as () => ParseWorkerLike);
  return shared;
}

/** "Reading 2.1 of 5.0 MB…" / "Parsing…" / "Parsing 12 of 30 files…": what a progress line says. */
export function progressText(p: ParseProgress): string {
  if (p.stage === 'parsing') return p.of !== undefined && p.of > 1 ? `Parsing ${Math.min((p.done ?? 0) + 1, p.of)} of ${p.of} files…` : 'Parsing…';
  const mb = (n: number) => (n / 1e6).toFixed(1);
  return `Reading ${mb(p.loaded)} of ${mb(p.total)} MB…`;
}
