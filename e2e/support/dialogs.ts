import type { Page } from '@playwright/test';

/**
 * Dismisses every alert/confirm/prompt the page opens and returns their messages, so a spec can
 * assert none fired (injected script would show itself this way).
 */
export function collectDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}
