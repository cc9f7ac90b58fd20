import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { ImageAttachmentsSchema, type ImageAttachment } from '../../../protocol/agent/wire';
import { buildHumanMessage, messageImages } from './humanMessage';
import { toThreadMessages } from './threadView';

const png: ImageAttachment = { mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'dot.png' };
const jpeg: ImageAttachment = { mimeType: 'image/jpeg', data: '/9j/4AAQ', name: 'photo.jpg' };

describe('buildHumanMessage', () => {
  it('is plain text without images', () => {
    const m = buildHumanMessage('How many rows?');
    expect(m.content).toBe('How many rows?');
    expect(messageImages(m)).toEqual([]);
  });

  it('puts the text first, then one image_url part per image as a data URL', () => {
    const m = buildHumanMessage('What does this chart show?', [png, jpeg]);
    expect(m.content).toEqual([
      { type: 'text', text: 'What does this chart show?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
    ]);
    // The graph reads the question through `.text`: the images must not leak into it.
    expect(m.text).toBe('What does this chart show?');
    expect(messageImages(m)).toEqual(['data:image/png;base64,iVBORw0KGgo=', 'data:image/jpeg;base64,/9j/4AAQ']);
  });

  it('survives as a stored thread message with its images', () => {
    const view = toThreadMessages([buildHumanMessage('Explain', [png]), new AIMessage('A dot.'), new HumanMessage('And now?')]);
    expect(view).toEqual([
      { role: 'user', content: 'Explain', images: ['data:image/png;base64,iVBORw0KGgo='] },
      { role: 'assistant', content: 'A dot.' },
      { role: 'user', content: 'And now?' },
    ]);
  });
});

describe('ImageAttachmentsSchema', () => {
  it('accepts up to four images of the supported types', () => {
    expect(ImageAttachmentsSchema.safeParse([png, jpeg, png, jpeg]).success).toBe(true);
  });
  it('refuses a fifth image, an unsupported type and data that is not base64', () => {
    expect(ImageAttachmentsSchema.safeParse([png, png, png, png, png]).success).toBe(false);
    expect(ImageAttachmentsSchema.safeParse([{ ...png, mimeType: 'image/svg+xml' }]).success).toBe(false);
    expect(ImageAttachmentsSchema.safeParse([{ ...png, data: 'data:image/png;base64,AAAA' }]).success).toBe(false);
  });
});
