import type { Engine } from './duckdbEngine';

/**
 * What model SQL read of DuckDB's catalog (modelScope.ts), kept between runs while nothing else
 * ran. Reading it costs more than a small query (duckdb_views() renders every internal view's SQL),
 * and it can only change through a statement or insert someone else hands the engine: the
 * console's, a load's, a rename's, a remove's, a restore's, a reread's. So the facts are kept
 * together with the engine's call count (Engine.calls) at the end of the model run that read or
 * reused them, and reused only when the next run starts at that same count and no call but the
 * run's own has been made since. Anything else (an engine that does not count its calls, a call
 * that slipped in during a run) reads the catalog again.
 */

interface Kept<T> {
  /** Engine.calls when the run that read or reused the facts ended. */
  at: number;
  facts: T;
}

const kept = new WeakMap<Engine, Kept<unknown>>();

/** One model SQL run: the engine it uses counts its own calls, to tell them from anyone else's. */
export class ModelRun {
  readonly engine: Engine;
  private own = 0;
  private readonly start: number | undefined;
  private facts: { value: unknown } | undefined;

  constructor(private readonly raw: Engine) {
    this.start = raw.calls;
    const count = () => this.own++;
    this.engine = {
      version: () => raw.version(),
      query: (sql) => (count(), raw.query(sql)),
      send: (sql) => (count(), raw.send(sql)),
      cancel: () => raw.cancel(),
      tokenize: (sql) => raw.tokenize(sql),
      insertArrowStream: (ipc, table, create) => (count(), raw.insertArrowStream(ipc, table, create)),
      registerBlob: (name, blob) => raw.registerBlob(name, blob),
      dropFile: (name) => raw.dropFile(name),
    };
  }

  /** Whether every call to the engine since this run began was this run's own. */
  private alone(): boolean {
    return this.start !== undefined && this.raw.calls === this.start + this.own;
  }

  /** The catalog facts: the ones kept, if nothing else ran since they were read; else `read()`. */
  async catalog<T>(read: (engine: Engine) => Promise<T>): Promise<T> {
    const prior = kept.get(this.raw);
    if (!this.facts && prior && prior.at === this.start && this.alone()) this.facts = { value: prior.facts };
    this.facts ??= { value: await read(this.engine) };
    return this.facts.value as T;
  }

  /**
   * Called once the run's transaction is over. Its own statements were judged read-only and rolled
   * back, so what it read (or found still valid) holds at this count, if no one else's call came
   * in meanwhile.
   */
  finish(): void {
    const prior = kept.get(this.raw);
    const facts = this.facts ?? (prior && prior.at === this.start ? { value: prior.facts } : undefined);
    if (facts && this.alone() && this.raw.calls !== undefined) kept.set(this.raw, { at: this.raw.calls, facts: facts.value });
    else kept.delete(this.raw);
  }
}
