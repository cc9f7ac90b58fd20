/** The name a URL's data will be known by: its last path segment, or the host. */
export function urlFileName(url: string): string {
  try {
    const u = new URL(url);
    const last = decodeURIComponent(u.pathname.split('/').filter(Boolean).pop() ?? '');
    return last || u.hostname || 'download';
  } catch {
    return url.split('/').filter(Boolean).pop() ?? 'download';
  }
}

/** Samples ship with the site under `samples/`, resolved against the page so sub-paths work. */
export function sampleUrl(file: string, base: string): string {
  return new URL(`samples/${encodeURIComponent(file)}`, base).href;
}
