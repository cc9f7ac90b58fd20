/**
 * What differs between the app's code editors, per language. Plain data with no CodeMirror import,
 * so the app shell can size the textarea fallback without pulling the editor in.
 */
export type CodeLanguage = 'sql' | 'python';

/** Table name → column names, offered as SQL completions. */
export type SqlSchema = Record<string, string[]>;

export interface CodeLanguageSettings {
  placeholder: string;
  /** Spaces per indent level (Python's convention is 4). */
  indent: number;
  /** Visible lines of the textarea fallback. */
  rows: number;
  minHeight: string;
  maxHeight: string;
  /** The completion popup; off for Python, whose completions are only local names. */
  completion: boolean;
  lineWrapping: boolean;
}

export const CODE_LANGUAGES: Record<CodeLanguage, CodeLanguageSettings> = {
  sql: {
    placeholder: 'SELECT * FROM …',
    indent: 2,
    rows: 5,
    minHeight: '7rem',
    maxHeight: '18rem',
    completion: true,
    lineWrapping: true,
  },
  python: {
    placeholder: 'result = sum(range(10))',
    indent: 4,
    rows: 8,
    minHeight: '9rem',
    maxHeight: '24rem',
    completion: false,
    lineWrapping: false,
  },
};
