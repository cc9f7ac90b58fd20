/** Loads the markdown engine once; every Markdown component shares the same promise. */
export type MarkdownEngine = typeof import('./markdownEngine');

let loading: Promise<MarkdownEngine> | null = null;

export function loadMarkdownEngine(): Promise<MarkdownEngine> {
  loading ??= import('./markdownEngine').catch((e: unknown) => {
    // A failed chunk load (offline before it was cached) may succeed later: do not keep the failure.
    loading = null;
    throw e;
  });
  return loading;
}
