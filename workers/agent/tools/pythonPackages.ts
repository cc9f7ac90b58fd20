/**
 * What run_python can import right now, as the Python side last pushed it (a `packages` event
 * on the agent's Python port, sent when the port is served and whenever the list changes), so a
 * run reads it here instead of asking the page — which would start Pyodide — on every question.
 */
import type { AgentPythonEvent } from '../../../protocol/python';

export class PythonPackages {
  #loaded: string[] | undefined;
  readonly #ask: () => Promise<string[]>;

  /** `ask`: the page's `packages` request, used only while nothing has been pushed yet. */
  constructor(ask: () => Promise<string[]>) {
    this.#ask = ask;
  }

  /** Wire this to the Python client's event callback. */
  onEvent(e: AgentPythonEvent): void {
    if (e.type === 'packages') this.#loaded = [...e.loaded];
  }

  /** The pushed list; before the first push (Python has not started yet), the page is asked once. */
  async current(): Promise<string[]> {
    if (this.#loaded) return this.#loaded;
    const asked = await this.#ask();
    return (this.#loaded ??= asked);
  }
}
