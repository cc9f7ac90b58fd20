/**
 * The one owner of the channels between engines. Each link joins a consumer (the worker that
 * calls) to a provider (the one that serves). A consumer opens its links while it boots, through
 * the `ConnectPort` its client was given; when a provider restarts, the mesh opens every link it
 * serves again, so no worker is left holding a port to a dead one. A link opened again replaces
 * its previous channel: the page-side server is closed here, and the data worker closes a peer's
 * old port itself when that peer's new one arrives.
 */
import type { ConnectPort } from './workerSession';

/** Who serves a link: a worker that can restart, or this page (which outlives the workers). */
export type Provider = 'data' | 'page';

export interface LinkSpec {
  provider: Provider;
  /** Hands the provider its end of a new channel; may return how to stop serving it. */
  serve(port: MessagePort): Promise<void> | (() => void);
}

interface OpenLink {
  attach: (port: MessagePort) => Promise<void>;
  close?: () => void;
}

export class EngineMesh<L extends string> {
  #specs: Record<L, LinkSpec>;
  #open = new Map<L, OpenLink>();

  constructor(specs: Record<L, LinkSpec>) {
    this.#specs = specs;
  }

  /** What the consumer of `link` is given: it opens (or opens again) that link. */
  connector(link: L): ConnectPort {
    return (attach) => this.#connect(link, attach);
  }

  async #connect(link: L, attach: OpenLink['attach']): Promise<void> {
    this.#close(link);
    const channel = new MessageChannel();
    const served = await this.#specs[link].serve(channel.port1);
    this.#open.set(link, { attach, ...(typeof served === 'function' ? { close: served } : {}) });
    await attach(channel.port2);
  }

  /**
   * `provider` restarted: every link it serves is opened again for its consumer. A consumer
   * that died meanwhile fails its attach, which is fine: it opens its links when it boots again.
   */
  async reopen(provider: Provider): Promise<void> {
    const links = [...this.#open.entries()].filter(([link]) => this.#specs[link].provider === provider);
    await Promise.all(links.map(([link, open]) => this.#connect(link, open.attach).catch(() => undefined)));
  }

  /** The links open now (for tests and diagnostics). */
  get openLinks(): L[] {
    return [...this.#open.keys()];
  }

  #close(link: L): void {
    const open = this.#open.get(link);
    this.#open.delete(link);
    open?.close?.();
  }

  dispose(): void {
    for (const link of [...this.#open.keys()]) this.#close(link);
  }
}
