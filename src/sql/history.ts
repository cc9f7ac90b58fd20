/** The SQL console's query history: most recent first, no duplicates, capped, kept in storage. */
export interface HistoryStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const HISTORY_KEY = 'dataseer:sql-history';
export const HISTORY_CAP = 50;

export function readHistory(storage: HistoryStorage | undefined, key = HISTORY_KEY): string[] {
  if (!storage) return [];
  try {
    const parsed: unknown = JSON.parse(storage.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((q): q is string => typeof q === 'string') : [];
  } catch {
    // Corrupt or foreign data under our key: start over rather than break the console.
    return [];
  }
}

/** Returns the new history with `sql` at the front; persists it when storage is available. */
export function addToHistory(
  history: readonly string[],
  sql: string,
  storage: HistoryStorage | undefined,
  cap = HISTORY_CAP,
  key = HISTORY_KEY,
): string[] {
  const q = sql.trim();
  if (!q) return [...history];
  const next = [q, ...history.filter((h) => h !== q)].slice(0, cap);
  try {
    storage?.setItem(key, JSON.stringify(next));
  } catch {
    // Quota or private mode: history still works for this session.
  }
  return next;
}
