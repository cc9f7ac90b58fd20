/**
 * Downloads a URL inside the worker, reporting progress from Content-Length, and turns network
 * and CORS failures (which browsers report only as "Failed to fetch") into a message that says
 * what probably happened.
 */
import { messageOf } from './errors';

export type FetchOutcome = { ok: true; blob: Blob; fileName: string } | { ok: false; fileName: string; message: string; suggestion?: string };

/** The URL's last path segment, decoded, or `download.csv` when it has none. */
export function fileNameFromUrl(url: string): string {
  try {
    const path = new URL(url).pathname;
    const last = decodeURIComponent(path.split('/').filter((s) => s !== '').pop() ?? '');
    return last || 'download.csv';
  } catch {
    return 'download.csv';
  }
}

export async function fetchSource(
  url: string,
  onProgress: (fraction: number | undefined, received: number) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<FetchOutcome> {
  const fileName = fileNameFromUrl(url);
  try {
    new URL(url);
  } catch {
    return { ok: false, fileName, message: `“${url}” is not a valid URL.`, suggestion: 'Use a full address starting with https://.' };
  }
  let response: Response;
  try {
    response = await fetchImpl(url);
  } catch (e) {
    return {
      ok: false,
      fileName,
      message: `Could not download ${url}: the server could not be reached or does not allow cross-origin (CORS) requests from this page (${messageOf(e)}).`,
      suggestion: 'Check the address and your connection, or download the file and add it from disk.',
    };
  }
  if (!response.ok) {
    return { ok: false, fileName, message: `Could not download ${url}: HTTP ${response.status} ${response.statusText}`.trim(), suggestion: 'Check the address.' };
  }
  // A single-page-app host answers a missing file with its index.html and status 200: that is
  // not data, and loading it as a one-column CSV would only confuse.
  if ((response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/html')) {
    return { ok: false, fileName, message: `${url} returned a web page (text/html), not a data file.`, suggestion: 'Use the direct link to the CSV, Parquet, JSON, Arrow or Excel file.' };
  }
  const total = Number(response.headers.get('content-length') ?? '');
  const known = Number.isFinite(total) && total > 0;
  const parts: Uint8Array[] = [];
  let received = 0;
  try {
    const reader = response.body?.getReader();
    if (!reader) return { ok: true, blob: await response.blob(), fileName };
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      received += value.byteLength;
      onProgress(known ? Math.min(1, received / total) : undefined, received);
    }
  } catch (e) {
    return { ok: false, fileName, message: `The download of ${url} broke off after ${received} bytes: ${messageOf(e)}`, suggestion: 'Try again.' };
  }
  return { ok: true, blob: new Blob(parts as BlobPart[], { type: response.headers.get('content-type') ?? '' }), fileName };
}
