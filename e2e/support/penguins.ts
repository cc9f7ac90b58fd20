/** The penguins sample's true figures, read from the file itself, for specs that check answers. */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { ScriptedReply } from '../../testing/mock-llm/server.mjs';
import { expect } from './fixtures';
import type { MockEndpoint } from '../../testing/mock-llm/client';
import { ask, chat, configureEndpoint, expectIdle, openSteps } from './mockLlm';
import { vega } from './paths';

interface Penguin {
  Species: string;
  'Body Mass (g)': number | null;
}
const penguins = JSON.parse(readFileSync(vega('penguins.json'), 'utf8')) as Penguin[];

const masses = (species: string): number[] => penguins.filter((p) => p.Species === species && p['Body Mass (g)'] !== null).map((p) => p['Body Mass (g)'] as number);
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** The mean body mass of a species, to two decimals, as the scripted answers state it. */
export function meanMass(species: string): string {
  return mean(masses(species)).toFixed(2);
}

/** The average body mass of every species, as numbers to two decimals, in species order. */
export function meanMassBySpecies(): [string, number][] {
  const species = [...new Set(penguins.map((p) => p.Species))].sort();
  return species.map((s) => [s, Math.round(mean(masses(s)) * 100) / 100]);
}

/**
 * The mean-mass question the provider specs ask under each provider persona, the scripted turns
 * of its validated answer, and what that answer must show.
 */
export const meanMassQuestion = (species: string): string => `What is the average body mass of ${species} penguins?`;
export const meanMassAnswer = (species: string): string => `${species} penguins weigh ${meanMass(species)} g on average.`;

export interface MeanMassScriptOptions {
  /** The model's reasoning on its three turns (SQL, validation, write-up); none when left out. */
  reasoning?: readonly [string, string, string];
  /** First reads the whole table (a large tool output). */
  look?: boolean;
}

/** The requests of a validated answer: run_sql, validate_results, the validation report, the text. */
export function meanMassScript(species: string, options: MeanMassScriptOptions = {}): ScriptedReply[] {
  const figure = meanMass(species);
  const sql = `SELECT round(avg("Body Mass (g)"), 2) AS mean_mass FROM penguins WHERE "Species" = '${species}'`;
  const [sqlThought, validateThought, writeThought] = options.reasoning ?? [];
  const thought = (reasoning: string | undefined) => (reasoning === undefined ? {} : { reasoning });
  const lookFirst: ScriptedReply[] = options.look ? [{ type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: 'SELECT * FROM penguins' } }] }] : [];
  return [
    ...lookFirst,
    { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql } }], ...thought(sqlThought) },
    { type: 'tool_calls', calls: [{ name: 'validate_results', arguments: { question: 'mean mass', approach: 'SQL average', results: figure, code: sql } }], ...thought(validateThought) },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.91 } },
    { type: 'text', content: meanMassAnswer(species), ...thought(writeThought) },
  ];
}

/** The `Steps` of the last answer. */
export const lastSteps = (page: Page): Locator => chat(page).log.getByRole('list', { name: 'Steps' }).last();

/**
 * The last answer gives the true figure with validation served and none of `absent` (reasoning
 * or tool-call text that must not leak), and its SQL step says how many rows it read.
 */
export async function expectValidatedAnswer(page: Page, species: string, absent: readonly string[]): Promise<void> {
  const card = chat(page).answers.last();
  await expect(card).toContainText(meanMassAnswer(species), { timeout: 60_000 });
  await expect(card).toContainText('Confidence 91%');
  await expect(card).not.toContainText('could not be validated');
  for (const text of absent) await expect(card).not.toContainText(text);
  // The SQL step itself, under How I got this (a model's words before its call are a step of their own).
  await openSteps(page);
  await expect(lastSteps(page).getByRole('listitem').filter({ hasText: 'run_sql' }).last()).toContainText(/Ran a query.*\d+ rows?/);
}

export interface PersonaQuestion {
  /** The scripted endpoint's persona (testing/mock-llm/personas/). */
  persona: string;
  species: string;
  model: string;
  key: string;
  /** The scripted replies; the validated answer when left out. */
  replies?: ScriptedReply[];
}

/** Points the app at `mock` playing `persona`, asks the mean-mass question in a new conversation, waits for the run to end. */
export async function askUnderPersona(page: Page, mock: MockEndpoint, q: PersonaQuestion): Promise<void> {
  await mock.reset();
  await mock.script(q.replies ?? meanMassScript(q.species), { persona: q.persona, models: [q.model] });
  await configureEndpoint(page, mock, { key: q.key, model: q.model });
  await page.getByRole('button', { name: 'New conversation' }).click();
  await ask(page, meanMassQuestion(q.species));
  await expectIdle(page);
}
