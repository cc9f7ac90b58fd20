/**
 * The SQL editor's language: DuckDB's dialect is closest to PostgreSQL's in lang-sql, keywords
 * upper-cased, and completion of the loaded tables and their columns — built once per catalog
 * (`catalogMemo`), not each time the dataset list changes. Imported lazily with CodeMirror.
 */
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import type { Extension } from '@codemirror/state';
import { catalogMemo } from './sqlCatalog';

export const sqlLanguage: (schema: Record<string, string[]>) => Extension = catalogMemo((schema) => sql({ dialect: PostgreSQL, schema, upperCaseKeywords: true }));
