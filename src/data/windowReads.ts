/**
 * The preview grid's reads of row windows in flight (issue 37). Over a view of a big file each far
 * window is a scan up to its offset: a window scrolled out of view is aborted (its read stopped
 * in DuckDB, DataClient.page), so the engine never stays busy with rows nobody will see, and the
 * user's Cancel aborts them all and holds the grid where it is until it is scrolled.
 */
export class WindowReads {
  #reads = new Map<number, AbortController>();
  #held: string | null = null;

  /** Starts the read of `block`: its signal aborts when the block leaves the view or on Cancel. */
  start(block: number): AbortSignal {
    const control = new AbortController();
    this.#reads.get(block)?.abort();
    this.#reads.set(block, control);
    return control.signal;
  }

  /** The read of `block` with this signal answered or failed. */
  finish(block: number, signal: AbortSignal): void {
    if (this.#reads.get(block)?.signal === signal) this.#reads.delete(block);
  }

  /** Aborts the reads of blocks not in `inView`; returns those blocks (read again once back in view). */
  supersede(inView: readonly number[]): number[] {
    const gone = [...this.#reads.keys()].filter((b) => !inView.includes(b));
    for (const b of gone) this.#abort(b);
    return gone;
  }

  /** Aborts every read (the grid's data changed, or it is gone); returns their blocks. */
  abortAll(): number[] {
    const all = [...this.#reads.keys()];
    for (const b of all) this.#abort(b);
    return all;
  }

  /** The user's Cancel: aborts every read and holds `view` (a key of the rows in view) until the view moves. */
  cancel(view: string): number[] {
    this.#held = view;
    return this.abortAll();
  }

  /** Whether `view` is the one the user cancelled: then its rows are not read. Any other view ends the hold. */
  holds(view: string): boolean {
    if (this.#held === view) return true;
    this.#held = null;
    return false;
  }

  get size(): number {
    return this.#reads.size;
  }

  #abort(block: number): void {
    this.#reads.get(block)?.abort();
    this.#reads.delete(block);
  }
}
