/**
 * Starter questions for the bundled samples (their table names), shown as buttons that ask
 * them while a conversation is empty. Each can be answered from the sample's own columns.
 */
export const STARTERS: Readonly<Record<string, readonly string[]>> = {
  penguins: [
    'How many penguins of each species are there?',
    'Which species has the longest flippers on average?',
    'Is body mass related to flipper length? Show a scatter chart.',
  ],
  seattle_weather: [
    'How many sunny days were there each year?',
    'Which month has the most precipitation on average?',
    'Chart the average maximum temperature by month.',
  ],
  cars: [
    'Which origin has the best average miles per gallon?',
    'How has average horsepower changed by year?',
    'Is weight related to miles per gallon? Show a scatter chart.',
  ],
};

/** The starters for the datasets loaded (samples only), at most `max` in all. */
export function startersFor(datasets: readonly string[], max = 6): { dataset: string; question: string }[] {
  const out: { dataset: string; question: string }[] = [];
  for (const name of datasets) for (const question of STARTERS[name] ?? []) out.push({ dataset: name, question });
  return out.slice(0, max);
}
