/**
 * The kinds of question the curated example library covers: the agent files each example under
 * one, and the page's gauntlet picker offers them as filters.
 */
export const EXAMPLE_CATEGORIES = [
  'comparison',
  'relationship',
  'description',
  'pattern',
  'visualization',
  'data_operation',
] as const;
export type ExampleCategory = (typeof EXAMPLE_CATEGORIES)[number];
