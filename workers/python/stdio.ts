/**
 * Batches a run's stdout/stderr lines into events: one message per line would flood the main
 * thread in a print loop, one per run would not stream. Caps what a single run may print.
 */

export interface StreamOptions {
  emit: (text: string) => void;
  now?: () => number;
  /** Flush when this much text is waiting… */
  maxChars?: number;
  /** …or when the last flush is this old. Python runs synchronously, so there is no timer:
   * a write after a quiet spell goes out at once, a burst goes out every `maxDelayMs`. */
  maxDelayMs?: number;
  /** Total characters a run may print before output is cut. */
  limit?: number;
}

export class OutputStream {
  #emit: (text: string) => void;
  #now: () => number;
  #maxChars: number;
  #maxDelayMs: number;
  #limit: number;
  #buffer = '';
  #lastFlush = -Infinity;
  #total = 0;
  #cut = false;

  constructor(opts: StreamOptions) {
    this.#emit = opts.emit;
    this.#now = opts.now ?? (() => performance.now());
    this.#maxChars = opts.maxChars ?? 8192;
    this.#maxDelayMs = opts.maxDelayMs ?? 50;
    this.#limit = opts.limit ?? 1_000_000;
  }

  /** A line as Pyodide's batched writer gives it (no trailing newline). */
  writeLine(line: string): void {
    this.write(line + '\n');
  }

  write(text: string): void {
    if (this.#cut) return;
    if (this.#total + text.length > this.#limit) {
      text = text.slice(0, Math.max(0, this.#limit - this.#total)) + `\n[output cut after ${this.#limit.toLocaleString('en')} characters]\n`;
      this.#cut = true;
    }
    this.#total += text.length;
    this.#buffer += text;
    if (this.#cut || this.#buffer.length >= this.#maxChars || this.#now() - this.#lastFlush >= this.#maxDelayMs) this.flush();
  }

  flush(): void {
    if (this.#buffer === '') return;
    const text = this.#buffer;
    this.#buffer = '';
    this.#lastFlush = this.#now();
    this.#emit(text);
  }
}
