/**
 * Sums the token usage of one run's requests, as the recording fetch reports each (the endpoint's
 * own `usage`, or an estimate from text length when it sent none). It wraps the privacy log's
 * sink, so the run's total and the log can never disagree about what was sent.
 */
import type { RequestOutcome, RequestSink } from '../privacy/recordingFetch';
import type { RunUsage } from '../../../protocol/agent/usage';

export class UsageMeter {
  #input = 0;
  #output = 0;
  #requests = 0;
  #estimated = false;
  /** Requests whose outcome (read from a tee of the body) has not arrived yet. */
  #pending = new Set<Promise<void>>();

  /** A sink that counts each request's outcome, then hands it to `inner`. */
  wrap(inner: RequestSink): RequestSink {
    return (request) => {
      const finish = inner(request);
      this.#requests++;
      let done: () => void = () => undefined;
      const waiting = new Promise<void>((resolve) => (done = resolve));
      this.#pending.add(waiting);
      void waiting.then(() => this.#pending.delete(waiting));
      let told = false;
      return (outcome: RequestOutcome) => {
        if (!told) this.#count(outcome);
        told = true;
        finish(outcome);
        done();
      };
    };
  }

  #count(outcome: RequestOutcome): void {
    const u = outcome.usage;
    if (!u) return;
    this.#input += u.prompt_tokens ?? 0;
    this.#output += u.completion_tokens ?? 0;
    if (u.estimated) this.#estimated = true;
  }

  /**
   * Resolves once every request sent so far has its outcome, or after `timeoutMs`: a streamed
   * body's usage chunk is read just after the stream the SDK consumed, so it is usually there.
   */
  async settled(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...this.#pending]), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** The run's usage so far; undefined when it sent nothing. */
  total(model: string, baseUrl: string): RunUsage | undefined {
    if (this.#requests === 0) return undefined;
    return { input_tokens: this.#input, output_tokens: this.#output, requests: this.#requests, estimated: this.#estimated, model, base_url: baseUrl };
  }
}
