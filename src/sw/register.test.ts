import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerIsolationWorker, watchForUpdates, type UpdateEnv } from './register';
import { UpdateNotice } from './updates.svelte';

/** Just enough of ServiceWorker, ServiceWorkerRegistration and the container to drive the glue. */
class FakeWorker extends EventTarget {
  readonly messages: unknown[] = [];
  constructor(public state: ServiceWorkerState) {
    super();
  }
  postMessage(message: unknown): void {
    this.messages.push(message);
  }
  become(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  active: FakeWorker | null = null;
  updates = 0;
  update(): Promise<void> {
    this.updates++;
    return Promise.reject(new Error('offline'));
  }
  /** A new worker arrives and installs; it waits only if an active one exists. */
  install(worker: FakeWorker): void {
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    this.installing = null;
    if (this.active) this.waiting = worker;
    else this.active = worker;
    worker.become('installed');
  }
}

class FakeContainer extends EventTarget {
  constructor(public controller: FakeWorker | null) {
    super();
  }
  takeOver(worker: FakeWorker): void {
    this.controller = worker;
    this.dispatchEvent(new Event('controllerchange'));
  }
}

function setup(controlled: boolean) {
  const old = new FakeWorker('activated');
  const registration = new FakeRegistration();
  if (controlled) registration.active = old;
  const container = new FakeContainer(controlled ? old : null);
  const notice = new UpdateNotice();
  let reloads = 0;
  const ticks: (() => void)[] = [];
  const env: UpdateEnv = { reload: () => void reloads++, every: (work) => void ticks.push(work) };
  watchForUpdates(container as unknown as ServiceWorkerContainer, registration as unknown as ServiceWorkerRegistration, notice, env);
  return { registration, container, notice, ticks, reloads: () => reloads };
}

describe('watchForUpdates', () => {
  it('stays silent on the first install and does not reload when the first worker takes over', () => {
    const t = setup(false);
    const first = new FakeWorker('installing');
    t.registration.install(first);
    t.container.takeOver(first);
    expect(t.notice.available).toBe(false);
    expect(t.reloads()).toBe(0);
  });

  it('offers a new version, and only the click makes it skip waiting (the old one letting go) and reload once', () => {
    const t = setup(true);
    const old = t.registration.active;
    const next = new FakeWorker('installing');
    t.registration.install(next);
    expect(t.notice.available).toBe(true);
    expect(next.messages).toEqual([]);
    expect(old?.messages).toEqual([]);
    expect(t.reloads()).toBe(0);

    t.notice.accept();
    t.notice.accept();
    expect(old?.messages).toEqual([{ type: 'release' }]);
    expect(next.messages).toEqual([{ type: 'skip-waiting' }]);
    expect(t.reloads()).toBe(0);
    t.container.takeOver(next);
    t.container.dispatchEvent(new Event('controllerchange'));
    expect(t.reloads()).toBe(1);
  });

  it('offers a worker that was already waiting when the page loaded', () => {
    const old = new FakeWorker('activated');
    const registration = new FakeRegistration();
    registration.active = old;
    registration.waiting = new FakeWorker('installed');
    const notice = new UpdateNotice();
    watchForUpdates(new FakeContainer(old) as unknown as ServiceWorkerContainer, registration as unknown as ServiceWorkerRegistration, notice, { reload: () => {}, every: () => {} });
    expect(notice.available).toBe(true);
  });

  it('when another tab activated the update, offers a plain reload instead of forcing one', () => {
    const t = setup(true);
    t.container.takeOver(new FakeWorker('activated'));
    expect(t.reloads()).toBe(0);
    expect(t.notice.available).toBe(true);
    t.notice.accept();
    expect(t.reloads()).toBe(1);
  });

  it('checks for a new deploy periodically and shrugs off a failed check', async () => {
    const t = setup(true);
    expect(t.ticks).toHaveLength(1);
    t.ticks[0]?.();
    await Promise.resolve();
    expect(t.registration.updates).toBe(1);
  });
});

/**
 * A first visit to a host that sends the isolation headers itself: what the page loaded before the
 * worker controlled it is handed over (`keep`). The worker runs on its own thread: on a busy page
 * it can install and claim the page before `register()` resolves, and the page then looked as if
 * it had been controlled all along — nothing was handed over and the offline reload missed
 * DuckDB's files (e2e/offline-first-visit.spec.ts:53, flaky).
 */
describe('registerIsolationWorker on a self-isolating host', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  function page(controlledAtLoad: boolean) {
    vi.stubEnv('PROD', true);
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const worker = new FakeWorker('activated');
    const registration = new FakeRegistration();
    const container = Object.assign(new FakeContainer(controlledAtLoad ? worker : null), {
      // The worker installs, activates and claims the page before the page hears back.
      register: async () => {
        registration.active = worker;
        if (!container.controller) container.takeOver(worker);
        return registration;
      },
    });
    vi.stubGlobal('navigator', { serviceWorker: container });
    vi.stubGlobal('window', { isSecureContext: true, crossOriginIsolated: true });
    vi.stubGlobal('sessionStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    vi.stubGlobal('location', { href: 'https://app.example/', origin: 'https://app.example' });
    vi.stubGlobal('document', { baseURI: 'https://app.example/' });
    return worker;
  }

  it('claimed before register() resolved: the page still hands over what it loaded', async () => {
    const worker = page(false);
    expect(await registerIsolationWorker(new UpdateNotice(), () => ['https://app.example/assets/duckdb-eh.wasm'])).toBe('isolated');
    await vi.waitFor(() => expect(worker.messages).toContainEqual({ type: 'keep', urls: expect.arrayContaining(['https://app.example/', 'https://app.example/assets/duckdb-eh.wasm']) }));
  });

  it('controlled from its load (a later visit): nothing to hand over', async () => {
    const worker = page(true);
    expect(await registerIsolationWorker(new UpdateNotice(), () => ['https://app.example/assets/duckdb-eh.wasm'])).toBe('isolated');
    await new Promise((r) => setTimeout(r, 20));
    expect(worker.messages).toEqual([]);
  });
});
