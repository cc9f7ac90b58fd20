/**
 * The real app against servers that lack a capability (issue #22): vLLM without automatic tool
 * choice, an Ollama model without tools, a llama-server with a 4k context (personas in
 * testing/mock-llm/personas/capabilities.mjs, each citing its source). Each must give the true
 * figure with validation served and clean answer text, say once what it adjusted, and — the
 * endpoint profile remembering — not pay for the refusal again on the next question.
 */
import type { Page } from '@playwright/test';
import { expect, sharedApp, test } from './support/fixtures';
import { ask, configureEndpoint, expectIdle, useMockLlm } from './support/mockLlm';
import { expectValidatedAnswer as expectValidated, lastSteps as steps, meanMassQuestion, meanMassScript } from './support/penguins';

const KEY = 'sk-e2e-capabilities-5Qm8';


const mock = useMockLlm();
const shared = sharedApp(async (app) => {
  await app.loadSample('penguins');
});

async function askIn(page: Page, species: string, options: { look?: boolean; newConversation?: boolean } = {}): Promise<void> {
  await mock.script(meanMassScript(species, { look: options.look }));
  if (options.newConversation !== false) await page.getByRole('button', { name: 'New conversation' }).click();
  await ask(page, meanMassQuestion(species));
  await expectIdle(page);
}

/** The last answer: the true figure, validation served, no tool call written out as text. */
const expectValidatedAnswer = (page: Page, species: string) => expectValidated(page, species, ['tool_call', '"name"']);

type Body = { tools?: unknown[]; tool_choice?: unknown; messages: { role: string }[] };
const bodies = async () => (await mock.chatRequests()).map((r) => r.body as Body);
const autoToolRequests = (bs: Body[]) => bs.filter((b) => Array.isArray(b.tools) && b.tools.length > 0 && (b.tool_choice === undefined || b.tool_choice === 'auto'));

test.describe('servers without automatic tool calls', () => {
  for (const [persona, model, refused] of [
    // https://github.com/langchain4j/langchain4j/issues/3475
    ['vllm-no-auto-tools', 'Qwen/Qwen2.5-7B-Instruct', '"auto" tool choice requires --enable-auto-tool-choice'],
    // https://github.com/ollama/ollama/issues/5793, https://github.com/louisho5/picobot/issues/6
    ['ollama-no-tools', 'gemma3:4b', 'does not support tools'],
  ] as const) {
    test(`${persona}: tools go by text, the answer is validated, and it is said once`, async () => {
      const page = shared().page;
      await mock.reset();
      await mock.script([], { persona, models: [model] });
      await configureEndpoint(page, mock, { key: KEY, model });
      await askIn(page, 'Adelie');
      await expectValidatedAnswer(page, 'Adelie');
      await expect(steps(page)).toContainText('Adjusted to the endpoint');
      await expect(steps(page)).toContainText(refused);
      let sent = await bodies();
      // One refused request, then every tool turn as text: no tools, no tool messages.
      expect(autoToolRequests(sent)).toHaveLength(1);
      expect(sent.slice(1).filter((b) => b.messages.some((m) => m.role === 'tool'))).toHaveLength(0);

      // The profile remembers: the next question pays nothing and says nothing.
      await mock.reset();
      await mock.script([], { persona, models: [model] });
      await askIn(page, 'Gentoo');
      await expectValidatedAnswer(page, 'Gentoo');
      await expect(steps(page)).not.toContainText('Adjusted to the endpoint');
      sent = await bodies();
      expect(autoToolRequests(sent)).toHaveLength(0);
    });
  }
});

test.describe('Test connection', () => {
  // https://github.com/langchain4j/langchain4j/issues/3475
  test('vllm-no-auto-tools: says tools go as text, and the first question then pays nothing for it', async () => {
    const page = shared().page;
    const model = 'Qwen/Qwen3-8B';
    await mock.reset();
    await mock.script(
      [
        { type: 'tool_calls', calls: [{ name: 'add_numbers', arguments: { a: 2, b: 3 } }] },
        { type: 'structured', value: { answer: 5 } },
      ],
      { persona: 'vllm-no-auto-tools', models: [model] },
    );
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
    await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY);
    await dialog.getByRole('textbox', { name: 'Model' }).fill(model);
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    await expect(dialog.getByRole('status', { name: 'Capabilities' })).toContainText('Tools: as text (the endpoint refuses automatic tool calls) · Structured output: yes (JSON schema)', { timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();

    await mock.reset();
    await mock.script([], { persona: 'vllm-no-auto-tools', models: [model] });
    await askIn(page, 'Chinstrap');
    await expectValidatedAnswer(page, 'Chinstrap');
    await expect(steps(page)).not.toContainText('Adjusted to the endpoint');
    expect(autoToolRequests(await bodies())).toHaveLength(0);
  });
});

/** The persona's own count (capabilities.mjs): a token per 3.2 characters of messages and tools. */
const llamaTokens = (b: Body) => Math.ceil((JSON.stringify(b.messages).length + (Array.isArray(b.tools) ? JSON.stringify(b.tools).length : 0)) / 3.2);

test.describe('a small context window', () => {
  // https://github.com/oobabooga/textgen/issues/7257, https://github.com/ggml-org/llama.cpp/pull/15780
  test('llamacpp-4k: the window is learned from the refusal, every request fitted, the answer validated', async () => {
    const page = shared().page;
    const model = 'qwen2.5-7b-instruct-q4_k_m.gguf';
    await mock.reset();
    await mock.script([], { persona: 'llamacpp-4k', models: [model] });
    await configureEndpoint(page, mock, { key: KEY, model });
    await askIn(page, 'Chinstrap', { look: true });
    await expectValidatedAnswer(page, 'Chinstrap');
    await expect(steps(page)).toContainText('context window of 4096 tokens');
    let sent = await bodies();
    expect(sent.filter((b) => llamaTokens(b) > 4096)).toHaveLength(1);

    // A follow-up in the same conversation, its history long: fitted before it is sent. (No
    // reset here, so the requests before it stay recorded.)
    const before = sent.length;
    await askIn(page, 'Gentoo', { look: true, newConversation: false });
    await expectValidatedAnswer(page, 'Gentoo');
    await expect(steps(page)).not.toContainText('Adjusted to the endpoint');
    sent = (await bodies()).slice(before);
    expect(sent.length).toBeGreaterThan(4);
    expect(sent.filter((b) => llamaTokens(b) > 4096)).toHaveLength(0);
  });
});
