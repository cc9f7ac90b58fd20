import { describe, expect, it, vi } from 'vitest';
import { downloadText, fileName, fileStem } from './download';

describe('download', () => {
  it('makes a safe file name from a title', () => {
    expect(fileName('Mean mass by species?', 'ipynb')).toBe('Mean-mass-by-species.ipynb');
    expect(fileName('../../etc/passwd', 'md')).toBe('etc-passwd.md');
    expect(fileName('Zürich: 東京 / data', '.csv')).toBe('Zürich-東京-data.csv');
    expect(fileName('<script>', 'html')).toBe('script.html');
    expect(fileName('???', 'html', 'conversation')).toBe('conversation.html');
    expect(fileStem('a'.repeat(100)).length).toBe(60);
  });

  it('saves through a temporary link to a blob URL and removes the link', async () => {
    const clicks: { href: string; download: string; attached: boolean }[] = [];
    const body = { children: [] as unknown[], append(el: unknown) { this.children.push(el); } };
    const doc = {
      body,
      createElement: () => {
        const a = {
          href: '', download: '', rel: '', style: { display: '' },
          click() { clicks.push({ href: a.href, download: a.download, attached: body.children.includes(a) }); },
          remove() { body.children.splice(body.children.indexOf(a), 1); },
        };
        return a;
      },
    };
    const created: Blob[] = [];
    const spy = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (created.push(b as Blob), 'blob:test/1'));
    downloadText('a,b\r\n', 'x.csv', 'text/csv', doc as unknown as Document);
    spy.mockRestore();
    expect(clicks).toEqual([{ href: 'blob:test/1', download: 'x.csv', attached: true }]);
    expect(body.children).toEqual([]);
    expect(await created[0]?.text()).toBe('a,b\r\n');
    expect(created[0]?.type).toBe('text/csv');
  });
});
