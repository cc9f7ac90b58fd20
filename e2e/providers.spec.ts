/**
 * The real app against providers' documented wire behaviour (issue #10): one persona of the
 * scripted endpoint per behaviour (testing/mock-llm/personas/providers.mjs, each citing its source).
 * With each, a data question on a real file must give the true figure, validation actually
 * served, no reasoning text in the answer and the status steps that say what was adjusted.
 * One page for the walk: DuckDB's start-up dominates on a busy machine.
 */
import type { Page } from '@playwright/test';
import { expect, sharedApp, test } from './support/fixtures';
import { chat, useMockLlm } from './support/mockLlm';
import { askUnderPersona, expectValidatedAnswer as expectValidated, lastSteps as steps, meanMassScript } from './support/penguins';

const KEY = 'sk-e2e-providers-7Rt2';
const THOUGHT = 'Maybe the mean is 999999 grams; check with SQL.';
/** Reasoning on each of the model's turns; the first names a figure that must not reach the answer. */
const REASONING = [THOUGHT, 'Now validate.', 'Write it up.'] as const;


const mock = useMockLlm();
const shared = sharedApp(async (app) => {
  await app.loadSample('penguins');
});

const askWith = (page: Page, persona: string, species: string, model = 'mock-model') =>
  askUnderPersona(page, mock, { persona, species, model, key: KEY, replies: meanMassScript(species, { reasoning: REASONING }) });
/** The last answer: the true figure, validation served, no reasoning text. */
const expectValidatedAnswer = (page: Page, species: string) => expectValidated(page, species, ['999999', '<think']);

test.describe('providers', () => {
  test('OpenAI reasoning family: no temperature for gpt-5; a refusal under another name costs one request, once', async () => {
    const page = shared().page;
    await askWith(page, 'openai-reasoning', 'Adelie', 'gpt-5-mini');
    await expectValidatedAnswer(page, 'Adelie');
    let bodies = (await mock.chatRequests()).map((r) => r.body as Record<string, unknown>);
    expect(bodies.length).toBe(4);
    expect(bodies.some((b) => 'temperature' in b)).toBe(false);

    // A deployment name the app cannot recognise: refused once, remembered for the next question.
    await askWith(page, 'openai-reasoning', 'Gentoo', 'team-reasoner');
    await expectValidatedAnswer(page, 'Gentoo');
    await expect(steps(page)).toContainText('Adjusted to the endpoint');
    await expect(steps(page)).toContainText('temperature');
    bodies = (await mock.chatRequests()).map((r) => r.body as Record<string, unknown>);
    expect(bodies.length).toBe(5);
    await askWith(page, 'openai-reasoning', 'Chinstrap', 'team-reasoner');
    await expectValidatedAnswer(page, 'Chinstrap');
    await expect(steps(page)).not.toContainText('Adjusted to the endpoint');
    bodies = (await mock.chatRequests()).map((r) => r.body as Record<string, unknown>);
    expect(bodies.length).toBe(4);
    expect(bodies.some((b) => 'temperature' in b)).toBe(false);
  });

  test('DeepSeek: reasoning in Thinking, never sent back; validation via function calling', async () => {
    const page = shared().page;
    await askWith(page, 'deepseek', 'Adelie', 'deepseek-reasoner');
    await expectValidatedAnswer(page, 'Adelie');
    const thinking = steps(page).getByRole('group', { name: 'Thinking' }).first();
    await expect(thinking).toBeVisible();
    await thinking.getByText('Thinking', { exact: true }).click();
    await expect(thinking).toContainText('999999');
    await expect(steps(page)).toContainText('validation_report came via function calling');
    for (const r of await mock.chatRequests()) expect(r.raw_body).not.toContain('reasoning_content');
  });

  for (const [persona, species, model] of [
    ['openrouter', 'Gentoo', 'deepseek/deepseek-r1'],
    ['inline-think', 'Chinstrap', 'qwen3:8b'],
  ] as const) {
    test(`${persona}: reasoning goes to Thinking, the answer stays clean`, async () => {
      const page = shared().page;
      await askWith(page, persona, species, model);
      await expectValidatedAnswer(page, species);
      await expect(steps(page).getByRole('group', { name: 'Thinking' }).first()).toBeVisible();
    });
  }

  for (const [persona, species, model] of [
    ['groq-tool-use-failed', 'Adelie', 'llama-3.3-70b-versatile'],
    ['json-in-text', 'Gentoo', 'llama3.2:3b'],
    ['tool-call-quirks', 'Chinstrap', 'gemini-2.5-flash'],
    ['no-stream-options', 'Adelie', 'local-model'],
  ] as const) {
    test(`${persona}: the calls still run and the answer is validated`, async () => {
      const page = shared().page;
      await askWith(page, persona, species, model);
      await expectValidatedAnswer(page, species);
      await expect(chat(page).answers.last()).not.toContainText('"name"');
    });
  }
});

test.describe('Test connection', () => {
  for (const [persona, expected] of [
    ['deepseek', 'Tools: yes · Structured output: via function calling (JSON schema refused) · Images: not tested · Reasoning: reasoning_content field'],
    ['json-in-text', 'Tools: yes · Structured output: yes (JSON schema) · Images: not tested · Reasoning: none seen'],
  ] as const) {
    test(`tells what the model can do in plain words (${persona})`, async () => {
      const page = shared().page;
      await mock.reset();
      await mock.script(
        [
          { type: 'tool_calls', calls: [{ name: 'add_numbers', arguments: { a: 2, b: 3 } }], reasoning: 'two plus three' },
          { type: 'structured', value: { answer: 5 } },
        ],
        { persona, models: ['probe-model'] },
      );
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
      await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY);
      await dialog.getByRole('textbox', { name: 'Model' }).fill('probe-model');
      await dialog.getByRole('button', { name: 'Test connection' }).click();
      await expect(dialog.getByRole('status', { name: 'Capabilities' })).toContainText(expected, { timeout: 60_000 });
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog).toBeHidden();
    });
  }
});
