/**
 * One run's events as an async iterator: events are buffered until read, `end` finishes the
 * iteration, `fail` makes the reader's next step throw (the worker died mid-run).
 */
export class RunStream<T> implements AsyncIterable<T> {
  #queue: T[] = [];
  #done = false;
  #error: Error | null = null;
  #wake: (() => void) | null = null;

  push(item: T): void {
    if (this.#done) return;
    this.#queue.push(item);
    this.#notify();
  }

  end(): void {
    this.#done = true;
    this.#notify();
  }

  fail(error: Error): void {
    if (this.#done) return;
    this.#error = error;
    this.#done = true;
    this.#notify();
    this.#rejectFailed?.(error);
  }

  #failedPromise: Promise<never> | null = null;
  #rejectFailed: ((error: Error) => void) | null = null;

  /** Rejects when the stream is failed (for racing a step that must not outlive the run). */
  failed(): Promise<never> {
    if (!this.#failedPromise) {
      this.#failedPromise = this.#error ? Promise.reject(this.#error) : new Promise<never>((_, reject) => (this.#rejectFailed = reject));
    }
    return this.#failedPromise;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void> {
    for (;;) {
      const next = this.#queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#error) throw this.#error;
      if (this.#done) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}
