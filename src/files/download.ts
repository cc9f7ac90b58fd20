/** Saving a generated file: a safe file name, and a Blob handed to a temporary <a download>. */

/**
 * A file name from a title: letters (any script), digits, `-` and `_` kept, everything else
 * collapsed to `-`, at most 60 characters; `fallback` when nothing is left.
 */
export function fileStem(title: string, fallback = 'dataseer'): string {
  const stem = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_.]+|[-_.]+$/g, '')
    .slice(0, 60)
    .replace(/[-_.]+$/g, '');
  return stem || fallback;
}

export function fileName(title: string, extension: string, fallback?: string): string {
  return `${fileStem(title, fallback)}.${extension.replace(/^\./, '')}`;
}

export const MIME = {
  ipynb: 'application/x-ipynb+json',
  html: 'text/html;charset=utf-8',
  md: 'text/markdown;charset=utf-8',
  csv: 'text/csv;charset=utf-8',
} as const;

/** Starts the browser's download of `text` as `name`. */
export function downloadText(text: string, name: string, type: string, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  doc.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
    // Revoking at once can cancel the download in some browsers; a minute is plenty.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
