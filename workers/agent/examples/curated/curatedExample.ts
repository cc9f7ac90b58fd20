import type { ExampleRecord } from '../../../../protocol/agent/tools';
import type { ExampleCategory } from '../../../../shared/exampleCategories';

/** A curated example: a stored example plus its category and the tool that runs its pattern. */
export interface CuratedExample extends ExampleRecord {
  category: ExampleCategory;
  /** Which tool runs `code_pattern`. */
  language: 'sql' | 'python' | 'chart';
}
