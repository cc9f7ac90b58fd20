/**
 * The curated example library: how typical questions are answered in THIS app. Each code
 * pattern is DuckDB SQL (for `run_sql` / `create_chart`) or Python for `run_python`, where
 * `sql(query)` returns a table with `.columns` (names) and `.rows` (lists), or a pandas
 * DataFrame when pandas is importable; patterns marked "stdlib" need nothing beyond the
 * standard library.
 *
 * Placeholders in angle brackets are to be replaced with the user's names:
 * <table>, <other_table>, <group_col> (a category with few levels), <group_a>, <group_b>
 * (two of its values), <value_col>, <x_col>, <y_col> (numbers), <date_col> (a DATE/TIMESTAMP),
 * <flag_col> (a 0/1 or boolean outcome), <key_col> (a join key present in both tables).
 * examples.test.ts substitutes them and runs every SQL pattern on native DuckDB and parses
 * every Python pattern, so a pattern that stops working fails a test.
 *
 * The records are data, one file per category in curated/; this is the one list they make.
 */
import { COMPARISONS } from './curated/comparisons';
import { DATA_OPERATIONS } from './curated/dataOperations';
import { DESCRIPTIONS } from './curated/descriptions';
import { PATTERNS } from './curated/patterns';
import { RELATIONSHIPS } from './curated/relationships';
import { VISUALIZATIONS } from './curated/visualizations';
import type { CuratedExample } from './curated/curatedExample';

export { EXAMPLE_CATEGORIES, type ExampleCategory } from '../../../shared/exampleCategories';
export type { CuratedExample } from './curated/curatedExample';

/** In the order of EXAMPLE_CATEGORIES, as the list always was. */
export const EXAMPLES: readonly CuratedExample[] = [...COMPARISONS, ...RELATIONSHIPS, ...DESCRIPTIONS, ...PATTERNS, ...VISUALIZATIONS, ...DATA_OPERATIONS];
