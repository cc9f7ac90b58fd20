import { describe, expect, it } from 'vitest';
import { admitImages, attachmentFromDataUrl } from './attachments';

const MB = 1024 * 1024;

describe('admitImages', () => {
  it('takes supported images within the limits', () => {
    const files = [
      { name: 'a.png', type: 'image/png', size: 10 },
      { name: 'b.webp', type: 'image/webp', size: 5 * MB },
    ];
    expect(admitImages(files, 0)).toEqual({ accepted: files, problems: [] });
  });

  it('refuses other types, files over 5 MB and a fifth image, saying why', () => {
    const { accepted, problems } = admitImages(
      [
        { name: 'doc.pdf', type: 'application/pdf', size: 10 },
        { name: 'big.jpg', type: 'image/jpeg', size: 6 * MB },
        { name: 'c.gif', type: 'image/gif', size: 10 },
        { name: 'd.png', type: 'image/png', size: 10 },
      ],
      3,
    );
    expect(accepted.map((f) => f.name)).toEqual(['c.gif']);
    expect(problems).toEqual([
      'doc.pdf is not a supported image (PNG, JPEG, WebP or GIF).',
      'big.jpg is 6.0 MB; images can be at most 5 MB.',
      'At most 4 images per question; d.png was not attached.',
    ]);
  });
});

describe('attachmentFromDataUrl', () => {
  it('splits a data URL into type and base64', () => {
    expect(attachmentFromDataUrl('data:image/png;base64,iVBORw0KGgo=', 'x.png')).toEqual({ mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'x.png' });
  });
  it('refuses other types and non-base64 URLs', () => {
    expect(attachmentFromDataUrl('data:image/svg+xml;base64,PHN2Zz4=', 'x.svg')).toBeUndefined();
    expect(attachmentFromDataUrl('data:image/png,raw', 'x.png')).toBeUndefined();
  });
});
