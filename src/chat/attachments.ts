/**
 * Images attached to a question in the composer: which files are taken (type, size, count) with
 * a message a person can act on when one is not, and reading a file as the protocol's
 * `ImageAttachment` (base64 from a `data:` URL, read on the main thread).
 */
import { IMAGE_MIME_TYPES, MAX_IMAGE_ATTACHMENTS, MAX_IMAGE_BYTES, type ImageAttachment } from '../../protocol/agent/wire';

export const IMAGE_ACCEPT = IMAGE_MIME_TYPES.join(',');

export interface FileFacts {
  name: string;
  type: string;
  size: number;
}

function isImageType(type: string): type is ImageAttachment['mimeType'] {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(type);
}

/** Splits files into those to read and the messages for those refused, given how many are attached. */
export function admitImages<F extends FileFacts>(files: readonly F[], attached: number): { accepted: F[]; problems: string[] } {
  const accepted: F[] = [];
  const problems: string[] = [];
  for (const f of files) {
    const label = f.name || 'The pasted image';
    if (!isImageType(f.type)) {
      problems.push(`${label} is not a supported image (PNG, JPEG, WebP or GIF).`);
    } else if (f.size > MAX_IMAGE_BYTES) {
      problems.push(`${label} is ${(f.size / 1024 / 1024).toFixed(1)} MB; images can be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
    } else if (attached + accepted.length >= MAX_IMAGE_ATTACHMENTS) {
      problems.push(`At most ${MAX_IMAGE_ATTACHMENTS} images per question; ${label} was not attached.`);
    } else {
      accepted.push(f);
    }
  }
  return { accepted, problems };
}

/** A `data:image/…;base64,…` URL as an attachment, or undefined when it is not one we take. */
export function attachmentFromDataUrl(url: string, name: string): ImageAttachment | undefined {
  const m = /^data:([^;,]+);base64,([A-Za-z0-9+/]+={0,2})$/.exec(url);
  if (!m?.[1] || !m[2] || !isImageType(m[1])) return undefined;
  return { mimeType: m[1], data: m[2], name };
}

/** Reads an image file (browser only). */
export function readImage(file: File): Promise<ImageAttachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(new Error(`${file.name} could not be read.`));
    reader.onload = () => {
      const a = typeof reader.result === 'string' ? attachmentFromDataUrl(reader.result, file.name || 'pasted image') : undefined;
      if (a) resolve(a);
      else reject(new Error(`${file.name} could not be read as an image.`));
    };
    reader.readAsDataURL(file);
  });
}
