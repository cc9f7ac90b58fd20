import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../../protocol/rpcServer';
import { FakeWorker } from './testing/fakeWorker';
import { WorkerSession, type RestartPolicy } from './workerSession';

type Requests = {
  init: { req: Record<string, never>; res: { n: number } };
  slow: { req: Record<string, never>; res: string };
};
type Event = { type: 'hello' };

const never = new Promise<never>(() => {});
let sessions: WorkerSession<Requests, Event>[] = [];
afterEach(() => {
  for (const s of sessions) s.dispose();
  sessions = [];
});

function harness(restart: RestartPolicy) {
  const workers: FakeWorker[] = [];
  const log: string[] = [];
  const session = new WorkerSession<Requests, Event>({
    name: 'test engine',
    spawn: () => {
      const channel = new MessageChannel();
      const n = workers.length + 1;
      serve<Requests, Event>(channel.port2, { init: () => ({ result: { n } }), slow: () => never });
      const worker = new FakeWorker(channel.port1);
      workers.push(worker);
      return worker.asWorker();
    },
    boot: async (rpc) => {
      const { n } = await rpc.call('init', {});
      log.push(`booted ${n}`);
    },
    restart,
    onCrash: (message, restarting) => log.push(`crash ${message} restarting=${restarting}`),
    onReady: (afterCrash) => log.push(`ready afterCrash=${afterCrash}`),
  });
  sessions.push(session);
  return { session, workers, log };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

describe('WorkerSession', () => {
  it('boots once however many callers start it', async () => {
    const { session, workers, log } = harness({ mode: 'lazy' });
    const [a, b] = await Promise.all([session.start(), session.start()]);
    expect(a).toBe(b);
    expect(workers).toHaveLength(1);
    expect(log).toEqual(['booted 1', 'ready afterCrash=false']);
    expect(session.current).toBe(a);
  });

  it('on a crash rejects every pending call with the reason, and an eager policy restarts at once', async () => {
    const { session, workers, log } = harness({ mode: 'eager', max: 1 });
    const rpc = await session.start();
    const pending = rpc.call('slow', {});
    workers[0]?.crash('simulated fault');
    await expect(pending).rejects.toThrow('simulated fault');
    expect(workers[0]?.terminated).toBe(true);
    await until(() => session.current !== null);
    expect(workers).toHaveLength(2);
    expect(log).toEqual(['booted 1', 'ready afterCrash=false', 'crash simulated fault restarting=true', 'booted 2', 'ready afterCrash=true']);
    // The second crash is past `max`: the worker stays down until asked for.
    workers[1]?.crash('again');
    expect(log.at(-1)).toBe('crash again restarting=false');
    expect(session.current).toBeNull();
  });

  it('a lazy policy leaves a crashed worker down until the next start', async () => {
    const { session, workers } = harness({ mode: 'lazy' });
    await session.start();
    workers[0]?.crash('gone');
    await new Promise((r) => setTimeout(r, 30));
    expect(workers).toHaveLength(1);
    await session.start();
    expect(workers).toHaveLength(2);
  });

  it('kill terminates now and fails calls in flight with the reason given', async () => {
    const { session, workers } = harness({ mode: 'eager', max: 3 });
    const rpc = await session.start();
    const pending = rpc.call('slow', {});
    session.kill('replaced after a failed run');
    await expect(pending).rejects.toThrow('replaced after a failed run');
    expect(workers[0]?.terminated).toBe(true);
    // A kill is not a crash: nothing restarts by itself.
    await new Promise((r) => setTimeout(r, 30));
    expect(workers).toHaveLength(1);
  });
});
