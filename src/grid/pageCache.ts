/**
 * Rows of a large table held in fixed-size blocks, fetched on demand as a grid scrolls.
 * Keeps at most `maxBlocks` blocks (least recently used evicted) so scrolling through millions
 * of rows does not grow memory without bound.
 */
export class PageCache<Row> {
  readonly blockSize: number;
  readonly maxBlocks: number;
  #blocks = new Map<number, Row[]>();
  #loading = new Set<number>();

  constructor(blockSize = 200, maxBlocks = 30) {
    if (blockSize <= 0 || maxBlocks <= 0) throw new Error('blockSize and maxBlocks must be positive');
    this.blockSize = blockSize;
    this.maxBlocks = maxBlocks;
  }

  /** The row at `index`, or undefined while its block is not loaded. */
  get(index: number): Row | undefined {
    const block = Math.floor(index / this.blockSize);
    const rows = this.#blocks.get(block);
    if (!rows) return undefined;
    // Map iteration order doubles as recency: re-insert on use.
    this.#blocks.delete(block);
    this.#blocks.set(block, rows);
    return rows[index - block * this.blockSize];
  }

  /** Blocks covering rows [start, end) that are neither loaded nor being loaded. */
  missing(start: number, end: number, rowCount: number): number[] {
    const out: number[] = [];
    const last = Math.min(end, rowCount) - 1;
    if (last < start) return out;
    for (let b = Math.floor(start / this.blockSize); b <= Math.floor(last / this.blockSize); b++) {
      if (!this.#blocks.has(b) && !this.#loading.has(b)) out.push(b);
    }
    return out;
  }

  /** The row range a block covers, for the fetch. */
  range(block: number): { offset: number; limit: number } {
    return { offset: block * this.blockSize, limit: this.blockSize };
  }

  markLoading(block: number): void {
    this.#loading.add(block);
  }

  /** Stores a fetched block; `keep` lists blocks on screen that must survive eviction. */
  set(block: number, rows: Row[], keep: readonly number[] = []): void {
    this.#loading.delete(block);
    this.#blocks.set(block, rows);
    for (const b of this.#blocks.keys()) {
      if (this.#blocks.size <= this.maxBlocks) break;
      if (b !== block && !keep.includes(b)) this.#blocks.delete(b);
    }
  }

  /** A fetch failed: forget it so a later scroll retries. */
  fail(block: number): void {
    this.#loading.delete(block);
  }

  clear(): void {
    this.#blocks.clear();
    this.#loading.clear();
  }

  get size(): number {
    return this.#blocks.size;
  }
}
