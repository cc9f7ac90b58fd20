/**
 * The colour theme: the system's (the default) or the user's own choice, kept in localStorage and
 * set as `data-theme` on the root element, where app.css picks its palette.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const KEY = 'dataseer:theme';

export function readTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Theme {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(KEY) ?? null;
  } catch {
    // Storage refused (a sandboxed frame): the system's theme.
  }
  return (THEMES as readonly string[]).includes(raw ?? '') ? (raw as Theme) : 'system';
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

export function saveTheme(theme: Theme, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(KEY, theme);
  } catch {
    // Storage refused: the theme still applies for this visit.
  }
}
