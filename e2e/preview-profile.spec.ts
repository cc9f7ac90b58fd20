/** The dataset views: a virtualised preview that reaches the last row, and a numeric profile. */
import type { Locator } from '@playwright/test';
import { expect, sharedApp, test } from './support/fixtures';
import { parseDisplayedNumber } from './support/compare';
import { nativeQuery, read } from './support/native';
import { generated, vega } from './support/paths';

const TALL_ROWS = 12345;

/** Scrolls whichever element inside (or being) the grid scrolls, to its bottom. */
async function scrollToBottom(grid: Locator): Promise<void> {
  await grid.evaluate((el) => {
    const candidates = [el, ...Array.from(el.querySelectorAll('*'))];
    const scroller = candidates.find((c) => c.scrollHeight > c.clientHeight + 4 && /auto|scroll/.test(getComputedStyle(c).overflowY));
    if (!scroller) throw new Error('no scrollable element in the grid');
    scroller.scrollTop = scroller.scrollHeight;
    scroller.dispatchEvent(new Event('scroll'));
  });
}

test.describe('dataset views', () => {
  const shared = sharedApp();

  test('preview grid of a 12,345-row dataset scrolls to the last row', async () => {
    const app = shared();
    const page = app.page;
    await app.addFiles(generated('tall-12345.csv'));
    await app.expectDataset('tall_12345');
    await app.selectDataset('tall_12345');
    const panel = await app.openTab('Preview');
    const grid = panel.getByRole('grid', { name: 'Preview of tall_12345', exact: true });
    await expect(grid).toBeVisible();

    // aria-rowcount counts every row, header included (ARIA), though only a window is in the DOM.
    const rowcount = Number(await grid.getAttribute('aria-rowcount'));
    expect([TALL_ROWS, TALL_ROWS + 1]).toContain(rowcount);
    await expect(grid.getByRole('gridcell', { name: 'row-1', exact: true })).toBeVisible();
    expect(await grid.getByRole('row').count()).toBeLessThan(500);

    await expect
      .poll(
        async () => {
          await scrollToBottom(grid);
          return grid.getByRole('gridcell', { name: `row-${TALL_ROWS}`, exact: true }).count();
        },
        { timeout: 30_000, intervals: [300] },
      )
      .toBe(1);
    await expect(grid.getByRole('gridcell', { name: `row-${TALL_ROWS}`, exact: true })).toBeInViewport();
    await expect(grid.getByRole('gridcell', { name: 'row-1', exact: true })).toHaveCount(0);
    // The last row's other cells are real values too, not placeholders.
    const lastRow = grid.getByRole('row').filter({ has: page.getByRole('gridcell', { name: `row-${TALL_ROWS}`, exact: true }) });
    await expect(lastRow.getByRole('gridcell', { name: String(TALL_ROWS), exact: true })).toBeVisible();
  });

  test('profile shows min, max and mean of a numeric column', async () => {
    const app = shared();
    const page = app.page;
    await app.loadSample('seattle_weather');
    await app.selectDataset('seattle_weather');
    await app.openTab('Profile');
    const card = page.getByRole('article', { name: 'Profile of temp_max', exact: true });
    await expect(card).toBeVisible({ timeout: 60_000 });

    const native = await nativeQuery('SELECT min(temp_max), max(temp_max), avg(temp_max) FROM w', { w: read.csv(vega('seattle-weather.csv')) });
    const [min, max, mean] = (native.rows[0] ?? []).map(Number);

    // The card's term → value pairs (a <dl>, or any labelled layout with the same words).
    const stats = await card.evaluate((el) => {
      const out: Record<string, string> = {};
      for (const dt of Array.from(el.querySelectorAll('dt'))) {
        const dd = dt.nextElementSibling;
        if (dd) out[(dt.textContent ?? '').trim().toLowerCase()] = (dd.textContent ?? '').trim();
      }
      return out;
    });
    expect(parseDisplayedNumber(stats.min ?? ''), `min in ${JSON.stringify(stats)}`).toBeCloseTo(min ?? NaN, 3);
    expect(parseDisplayedNumber(stats.max ?? ''), `max in ${JSON.stringify(stats)}`).toBeCloseTo(max ?? NaN, 3);
    expect(parseDisplayedNumber(stats.mean ?? ''), `mean in ${JSON.stringify(stats)}`).toBeCloseTo(mean ?? NaN, 2);
    await expect(card.getByRole('img')).toBeVisible();
  });
});
