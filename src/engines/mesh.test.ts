import { describe, expect, it } from 'vitest';
import { EngineMesh } from './mesh';

type Link = 'agent → data' | 'agent → python';

/** Records which ends were handed where; a port's messages show which channel it belongs to. */
function harness() {
  const served: { link: Link; port: MessagePort }[] = [];
  const closed: Link[] = [];
  const mesh = new EngineMesh<Link>({
    'agent → data': { provider: 'data', serve: async (port) => void served.push({ link: 'agent → data', port }) },
    'agent → python': {
      provider: 'page',
      serve: (port) => {
        served.push({ link: 'agent → python', port });
        return () => closed.push('agent → python');
      },
    },
  });
  return { mesh, served, closed };
}

describe('EngineMesh', () => {
  it('hands each side one end of a fresh channel, which talk to each other', async () => {
    const { mesh, served } = harness();
    const attached: MessagePort[] = [];
    await mesh.connector('agent → data')(async (port) => void attached.push(port));
    expect(served).toHaveLength(1);
    const heard = new Promise((resolve) => served[0]?.port.addEventListener('message', (e) => resolve(e.data), { once: true }));
    served[0]?.port.start();
    attached[0]?.postMessage('ping');
    expect(await heard).toBe('ping');
    expect(mesh.openLinks).toEqual(['agent → data']);
    mesh.dispose();
  });

  it('opens every link a restarted provider serves again, for the consumer that opened it', async () => {
    const { mesh, served } = harness();
    const attached: Link[] = [];
    await mesh.connector('agent → data')(async () => void attached.push('agent → data'));
    await mesh.connector('agent → python')(async () => void attached.push('agent → python'));
    await mesh.reopen('data');
    expect(attached).toEqual(['agent → data', 'agent → python', 'agent → data']);
    expect(served.map((s) => s.link)).toEqual(['agent → data', 'agent → python', 'agent → data']);
    mesh.dispose();
  });

  it('closes the page-side server of a link when it is opened again or the mesh goes', async () => {
    const { mesh, closed } = harness();
    const connect = mesh.connector('agent → python');
    await connect(async () => {});
    await connect(async () => {});
    expect(closed).toEqual(['agent → python']);
    mesh.dispose();
    expect(closed).toEqual(['agent → python', 'agent → python']);
    expect(mesh.openLinks).toEqual([]);
  });

  it('a consumer that died fails its attach quietly; the others are still handed new ports', async () => {
    const { mesh } = harness();
    let calls = 0;
    await mesh.connector('agent → data')(async () => {
      if (++calls > 1) throw new Error('the agent worker is gone');
    });
    await expect(mesh.reopen('data')).resolves.toBeUndefined();
    expect(calls).toBe(2);
    mesh.dispose();
  });
});
