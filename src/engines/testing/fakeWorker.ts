/** A stand-in Worker for tests: one end of a MessageChannel, with `error` dispatch and terminate. */
export class FakeWorker extends EventTarget {
  terminated = false;
  constructor(readonly port: MessagePort) {
    super();
    port.addEventListener('message', (ev) => this.dispatchEvent(new MessageEvent('message', { data: ev.data })));
    port.start();
  }
  postMessage(message: unknown, transfer: Transferable[] = []) {
    this.port.postMessage(message, transfer);
  }
  terminate() {
    this.terminated = true;
    this.port.close();
  }
  /** Fires `error` as an uncaught exception inside a real worker would. */
  crash(message: string) {
    const ev = new Event('error') as Event & { message: string };
    ev.message = message;
    this.dispatchEvent(ev);
  }
  asWorker(): Worker {
    return this as unknown as Worker;
  }
}
