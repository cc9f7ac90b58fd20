/**
 * The real app against provider behaviours of issue #22 (testing/mock-llm/personas/roundTrip.mjs,
 * each citing its source): fields the provider requires back exactly (Gemini 3's thought
 * signatures, OpenRouter's reasoning_details) — live, after a reload and after Regenerate —, an
 * error in the middle of a stream retried on its own, and a refused key that fails at once with
 * the fix named. Each gives the true figure with validation served and a clean answer, or a clear
 * message naming the cause and the fix.
 */
import type { Page } from '@playwright/test';
import type { ScriptedReply } from '../testing/mock-llm/server.mjs';
import { expect, sharedApp, test } from './support/fixtures';
import { ask, chat, expectIdle, useMockLlm } from './support/mockLlm';
import { askUnderPersona, expectValidatedAnswer as expectValidated, lastSteps as steps, meanMassAnswer as answerText, meanMassScript } from './support/penguins';

const KEY = 'sk-e2e-wire-5Kq8';


const mock = useMockLlm();
const shared = sharedApp(async (app) => {
  await app.loadSample('penguins');
});

/** The four requests of a validated answer, with reasoning on the model's turns. */
const script = (species: string): ScriptedReply[] => meanMassScript(species, { reasoning: ['Average the body mass with SQL.', 'Now validate.', 'Write it up.'] });
const askWith = (page: Page, persona: string, species: string, model: string, replies = script(species)) => askUnderPersona(page, mock, { persona, species, model, key: KEY, replies });
/** The last answer: the true figure, validation served, no reasoning text. */
const expectValidatedAnswer = (page: Page, species: string) => expectValidated(page, species, ['Write it up']);

const assistantMessages = async () =>
  (await mock.chatRequests()).flatMap((r) => ((r.body as { messages?: Record<string, unknown>[] }).messages ?? []).filter((m) => m.role === 'assistant'));

/** A follow-up question in the open conversation, answered in text; the run must succeed. */
async function followUp(page: Page, question: string, answer: string): Promise<void> {
  await mock.script([{ type: 'text', content: answer }]);
  await ask(page, question);
  await expectIdle(page);
  await expect(chat(page).answers.last()).toContainText(answer, { timeout: 60_000 });
  await expect(chat(page).log.getByRole('alert')).toHaveCount(0);
}

test.describe('provider fields that must come back', () => {
  test('Gemini 3: each thought signature goes back on its tool call — live, after a reload, after Regenerate', async () => {
    // https://ai.google.dev/gemini-api/docs/thought-signatures — a missing signature is refused
    // with HTTP 400 and a JSON array body (https://github.com/manthanabc/paws/issues/103); streamed
    // calls end with finish_reason "stop" (https://github.com/openai/openai-python/issues/2806).
    const app = shared();
    const page = app.page;
    await askWith(page, 'gemini-3', 'Adelie', 'gemini-3-flash-preview');
    await expectValidatedAnswer(page, 'Adelie');
    const signed = (await assistantMessages()).flatMap((m) => (m.tool_calls as { extra_content?: { google?: { thought_signature?: string } } }[] | undefined) ?? []);
    expect(signed.length).toBeGreaterThan(0);
    expect(signed.every((tc) => typeof tc.extra_content?.google?.thought_signature === 'string')).toBe(true);

    // The stored conversation carries them: a follow-up after a reload sends the first turn's calls again.
    await app.reload();
    await expect(chat(page).answers.last()).toContainText(answerText('Adelie'), { timeout: 60_000 });
    await followUp(page, 'And in kilograms?', 'About 3.70 kg.');
    await mock.script([{ type: 'text', content: 'Roughly 3.70 kg.' }]);
    await chat(page).log.getByRole('button', { name: 'Regenerate', exact: true }).click();
    await expectIdle(page);
    await expect(chat(page).answers.last()).toContainText('Roughly 3.70 kg.', { timeout: 60_000 });
    await expect(chat(page).log.getByRole('alert')).toHaveCount(0);
    expect(app.pageErrors).toEqual([]);
  });

  test('OpenRouter: reasoning_details go back unmodified; reasoning under Thinking, the answer clean', async () => {
    // https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks
    const page = shared().page;
    await askWith(page, 'openrouter-reasoning-details', 'Gentoo', 'anthropic/claude-sonnet-4.5');
    await expectValidatedAnswer(page, 'Gentoo');
    await expect(steps(page).getByRole('group', { name: 'Thinking' }).first()).toBeVisible();
    expect((await assistantMessages()).every((m) => Array.isArray(m.reasoning_details))).toBe(true);
    await followUp(page, 'Is that more than Adelie?', 'Yes, Gentoo are heavier.');
  });
});

test.describe('transient and permanent failures', () => {
  test('OpenRouter error mid-stream: retried once on its own, the partial reply dropped', async () => {
    // https://openrouter.ai/docs/api/reference/errors-and-debugging (an error event on HTTP 200)
    const page = shared().page;
    const replies = script('Chinstrap');
    // The first written answer breaks off mid-stream and is spent; the retry gets this copy.
    await askWith(page, 'openrouter-midstream-once', 'Chinstrap', 'openai/gpt-4o', [...replies, { type: 'text', content: answerText('Chinstrap') }]);
    await expectValidatedAnswer(page, 'Chinstrap');
    await expect(steps(page)).toContainText('The partial reply was discarded and the request sent again.');
    await expect(steps(page)).toContainText('Upstream provider disconnected');
    await expect(chat(page).log.getByRole('alert')).toHaveCount(0);
    expect(await mock.chatRequests()).toHaveLength(5);
  });

  test('a refused key fails at once with the fix named; Test connection says it is the key, not the model', async () => {
    // https://platform.openai.com/docs/guides/error-codes (401 "Incorrect API key provided")
    const page = shared().page;
    await askWith(page, 'bad-key', 'Adelie', 'gpt-4o-mini', []);
    const alert = chat(page).log.getByRole('alert').last();
    await expect(alert).toContainText('The key was refused by the endpoint (HTTP 401: “Incorrect API key provided”). Change the API key in Settings.');
    await expect(alert.getByRole('button', { name: 'Change API key' })).toBeVisible();
    await expect(alert.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    // One request: a refused key is not retried.
    expect(await mock.chatRequests()).toHaveLength(1);

    await alert.getByRole('button', { name: 'Change API key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const capabilities = dialog.getByRole('status', { name: 'Capabilities' });
    await expect(capabilities).toContainText('The key was refused by the endpoint', { timeout: 60_000 });
    await expect(capabilities).not.toContainText('Tools: no');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
  });

  test('a model the server does not serve: its words, the fix named, no retries', async () => {
    // LM Studio without a loaded model: https://github.com/lmstudio-ai/lms/issues/107
    const page = shared().page;
    await askWith(page, 'lmstudio-no-model', 'Adelie', 'qwen2.5-7b-instruct', []);
    const alert = chat(page).log.getByRole('alert').last();
    await expect(alert).toContainText('The endpoint does not serve this model (HTTP 404: “No models loaded. Please load a model in the developer page or use the `lms load` command.”). Pick a model from the list in Settings');
    await expect(alert.getByRole('button', { name: 'Pick a model' })).toBeVisible();
    await expect(alert.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    expect(await mock.chatRequests()).toHaveLength(1);
  });

  test('a reply with no text: the run says it failed and why, with no confidence figure', async () => {
    const page = shared().page;
    await askWith(page, 'openai-compatible', 'Adelie', 'mock-model', [{ type: 'text', content: '' }]);
    const card = chat(page).answers.last();
    await expect(card).toContainText('No answer was produced. The model ended its reply without writing an answer. Retry, or choose another model in Settings.', { timeout: 60_000 });
    await expect(card).toContainText('Could not answer');
    await expect(card).not.toContainText('Confidence');
  });
});
