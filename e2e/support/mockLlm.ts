/**
 * The scripted endpoint (testing/mock-llm) as a spec uses it: one server per spec file, emptied
 * before each test, plus the app's side of talking to it (Settings, the chat controls).
 */
import type { Locator, Page } from '@playwright/test';
import { mockEndpointClient, startedOrigin, type MockEndpoint } from '../../testing/mock-llm/client';
import { startMockLlm, type MockLlm } from '../../testing/mock-llm/server.mjs';
import { expect, test } from './fixtures';

/** Registers the hooks that start, reset and stop the endpoint for this spec file. */
export function useMockLlm(): MockEndpoint {
  let server: MockLlm | undefined;
  const endpoint = mockEndpointClient(startedOrigin(() => server));
  test.beforeAll(async () => {
    server = await startMockLlm({ port: 0, host: '127.0.0.1' });
  });
  test.afterAll(async () => {
    await server?.close();
  });
  test.beforeEach(async () => {
    await endpoint.reset();
  });
  return endpoint;
}

export interface EndpointSettings {
  key: string;
  /** The model typed into `Model`; with `testConnection`, the one picked from the list. */
  model?: string;
  contextTokens?: number;
  /** Goes through "Test connection" and picks the model from `Available models`. */
  testConnection?: boolean;
}

/** Fills and saves Settings so the app talks to `mock`. */
export async function configureEndpoint(page: Page, mock: Pick<MockEndpoint, 'url'>, settings: EndpointSettings): Promise<void> {
  const model = settings.model ?? 'mock-model';
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Base URL' }).fill(`${mock.url}/v1`);
  await dialog.getByRole('textbox', { name: 'API key' }).fill(settings.key);
  if (settings.testConnection) {
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const models = dialog.getByRole('list', { name: 'Available models' });
    await expect(models.getByRole('button', { name: model, exact: true })).toBeVisible({ timeout: 60_000 });
    await models.getByRole('button', { name: model, exact: true }).click();
    await expect(dialog.getByRole('textbox', { name: 'Model' })).toHaveValue(model);
  } else {
    await dialog.getByRole('textbox', { name: 'Model' }).fill(model);
  }
  if (settings.contextTokens !== undefined) await dialog.getByRole('textbox', { name: 'Context budget (tokens)' }).fill(String(settings.contextTokens));
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The chat's controls, by their contract names. */
export function chat(page: Page): Record<'log' | 'question' | 'send' | 'stop' | 'threads' | 'search' | 'mode' | 'answers', Locator> {
  const log = page.getByRole('log', { name: 'Conversation' });
  return {
    log,
    question: page.getByRole('textbox', { name: 'Ask a question' }),
    send: page.getByRole('button', { name: 'Send', exact: true }),
    stop: page.getByRole('button', { name: 'Stop', exact: true }),
    threads: page.getByRole('list', { name: 'Conversations' }),
    search: page.getByRole('searchbox', { name: 'Search conversations' }),
    mode: page.getByRole('combobox', { name: 'Mode' }),
    answers: log.getByRole('article', { name: 'Answer' }),
  };
}

/** Types `question` and sends it. */
export async function ask(page: Page, question: string): Promise<void> {
  const c = chat(page);
  await c.question.fill(question);
  await c.send.click();
}

/**
 * Asks `question` and waits until an answer containing `answer` is shown and the run has ended.
 * With `mock`, the endpoint is first scripted to reply with exactly that text.
 */
export async function askAndWait(page: Page, question: string, answer: string, mock?: Pick<MockEndpoint, 'script'>): Promise<void> {
  const c = chat(page);
  if (mock) await mock.script([{ type: 'text', content: answer }]);
  await ask(page, question);
  await expect(c.answers.filter({ hasText: answer })).toBeVisible({ timeout: 60_000 });
  await expect(c.stop).toBeHidden({ timeout: 60_000 });
}

/** The run has ended: Stop is gone and Send can be used again. */
export async function expectIdle(page: Page): Promise<void> {
  const c = chat(page);
  await expect(c.stop).toBeHidden({ timeout: 60_000 });
  await c.question.fill('x');
  await expect(c.send).toBeEnabled();
  await c.question.fill('');
}

/**
 * Opens "How I got this" under every answer in the log (collapsed once a run has answered), so
 * the `Steps` lists are on screen; returns the steps of all turns.
 */
export async function openSteps(page: Page): Promise<Locator> {
  const log = chat(page).log;
  // A run's steps are open while it runs and close when it has answered: opening them before the
  // run has ended would be undone by that (a flake seen once in a full run).
  await expect(log.locator('details.how > summary', { hasText: 'so far' })).toHaveCount(0);
  for (const how of await log.locator('details.how').all()) {
    // A click that lands while the log is being redrawn can miss (seen once in a full run: the
    // summary was clicked and stayed closed); look, and click again as a user would.
    await expect(async () => {
      if ((await how.getAttribute('open')) === null) await how.locator(':scope > summary').click();
      await expect(how).toHaveAttribute('open', '', { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
  }
  return log.getByRole('list', { name: 'Steps' });
}
