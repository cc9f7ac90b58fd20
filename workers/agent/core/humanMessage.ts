/**
 * The user's question as the model sees it: plain text, or — with images attached — LangChain
 * content parts (`text` then one `image_url` per image), which ChatOpenAI sends unchanged as
 * OpenAI-compatible multimodal content. The images stay in the message, so checkpoints keep
 * them with the thread and a reopened thread can show them.
 */
import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { imageDataUrl, type ImageAttachment } from '../../../protocol/agent/wire';

export type QuestionPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** `id`: what the message is stored under (else the reducer assigns one). */
export function buildHumanMessage(question: string, images: readonly ImageAttachment[] = [], id?: string): HumanMessage {
  const ident = id === undefined ? {} : { id };
  if (images.length === 0) return new HumanMessage({ content: question, ...ident });
  const content: QuestionPart[] = [{ type: 'text', text: question }, ...images.map((img) => ({ type: 'image_url' as const, image_url: { url: imageDataUrl(img) } }))];
  return new HumanMessage({ content, ...ident });
}

/** The `data:` image URLs of a stored message (none for plain text). */
export function messageImages(message: BaseMessage): string[] {
  const content: unknown = message.content;
  if (!Array.isArray(content)) return [];
  const urls: string[] = [];
  for (const part of content as unknown[]) {
    if (!part || typeof part !== 'object') continue;
    const p = part as { type?: unknown; image_url?: unknown };
    if (p.type !== 'image_url') continue;
    const url = typeof p.image_url === 'string' ? p.image_url : (p.image_url as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string' && url.startsWith('data:image/')) urls.push(url);
  }
  return urls;
}
