/** The SQL console: results, DuckDB's own error messages, history, and asking before destroying data. */
import { expect, sharedApp, test } from './support/fixtures';
import { expectSameRows, parseDisplayedNumber } from './support/compare';
import { nativeError, nativeQuery, read } from './support/native';
import { vega } from './support/paths';

const penguins = { penguins: read.json(vega('penguins.json')) };

/** DuckDB's message without its "<Kind> Error: " prefix, which a UI may restyle. */
const messageBody = (m: string): string => m.replace(/^[A-Za-z ]+Error:\s*/, '').trim();

test.describe('SQL console', () => {
  const shared = sharedApp((app) => app.loadSample('penguins'));

  test('runs a query from the button and from Ctrl+Enter', async () => {
    const app = shared();
    const sql = 'SELECT "Island", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1';
    const byButton = await app.runSql(sql);
    expect(byButton.columns).toEqual(['Island', 'n']);
    expectSameRows(byButton.rows, (await nativeQuery(sql, penguins)).rows);

    const sql2 = 'SELECT "Sex", count(*) AS n FROM penguins GROUP BY 1 ORDER BY 1 NULLS LAST';
    const byKeys = await app.runSql(sql2, 'keyboard');
    expect(byKeys.columns).toEqual(['Sex', 'n']);
    const want = (await nativeQuery(sql2, penguins)).rows.map((r) => r.map((c) => (c === '' ? 'NULL' : c)));
    expectSameRows(byKeys.rows, want);
  });

  test('SQL errors show DuckDB’s message and the console keeps working', async () => {
    const app = shared();
    for (const sql of ['SELEC 1', 'SELECT * FROM no_such_table', 'SELECT no_such_column FROM penguins']) {
      const native = await nativeError(sql, penguins);
      expect(native, `native DuckDB rejects ${sql}`).not.toBeNull();
      const shown = await app.sqlError(sql);
      expect(shown).toContain(messageBody(native ?? ''));
    }
    expect(parseDisplayedNumber(await app.scalar('SELECT count(*) FROM penguins'))).toBe(344);
  });

  test('query history lists what ran', async () => {
    const app = shared();
    await app.runSql('SELECT 1 AS first_query');
    await app.runSql('SELECT 2 AS second_query');
    await app.openHistory();
    await expect(app.history.getByRole('listitem').filter({ hasText: 'first_query' })).toHaveCount(1);
    await expect(app.history.getByRole('listitem').filter({ hasText: 'second_query' })).toHaveCount(1);
    // Most recent first.
    await expect(app.history.getByRole('listitem').first()).toContainText('second_query');
  });

  test('a read-only query does not ask', async () => {
    const app = shared();
    const page = app.page;
    await app.runSql('SELECT count(*) AS n FROM penguins WHERE "Species" = \'Gentoo\'');
    await expect(page.getByRole('dialog', { name: 'Confirm destructive query' })).toHaveCount(0);
  });

  // Last in the walk: it drops penguins.
  test('a destructive query asks first: Cancel keeps the table, Run anyway drops it', async () => {
    const app = shared();
    const page = app.page;
    const confirm = page
      .getByRole('dialog', { name: 'Confirm destructive query' })
      .or(page.getByRole('alertdialog', { name: 'Confirm destructive query' }));

    await app.submitSql('DROP TABLE penguins');
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText('penguins');
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(confirm).toBeHidden();
    await expect(app.removeButton('penguins')).toBeVisible();
    expect(parseDisplayedNumber(await app.scalar('SELECT count(*) AS still_there FROM penguins'))).toBe(344);

    await app.submitSql('DELETE FROM penguins WHERE "Species" = \'Adelie\'');
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(parseDisplayedNumber(await app.scalar('SELECT count(*) AS after_cancel FROM penguins'))).toBe(344);

    await app.submitSql('DROP TABLE penguins');
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Run anyway', exact: true }).click();
    await expect(app.removeButton('penguins')).toHaveCount(0, { timeout: 30_000 });
    expect(await app.sqlError('SELECT count(*) AS gone FROM penguins')).toContain('penguins');
  });
});
