/**
 * Each language's grammar behind its own dynamic import, so opening the SQL console never fetches
 * the Python grammar and neither sits in the app shell.
 */
import type { Extension } from '@codemirror/state';
import type { CodeLanguage, SqlSchema } from './codeLanguages';

/** Builds the language extension; SQL's depends on the schema it completes from (the same value for the same schema). */
export type Grammar = (schema: SqlSchema) => Extension;

export async function loadGrammar(language: CodeLanguage): Promise<Grammar> {
  switch (language) {
    case 'sql': {
      const { sqlLanguage } = await import('./sqlLanguage');
      return sqlLanguage;
    }
    case 'python': {
      const { python } = await import('@codemirror/lang-python');
      const language = python();
      return () => language;
    }
  }
}
