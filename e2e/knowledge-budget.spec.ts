/**
 * Knowledge under a tight budget, and a rule bound to its table's content (issue 32), as a user
 * meets them: a survey and a 500-column table, both dictionaries accepted, a context budget of
 * 8,000 tokens. The question about the survey sends its codes and its scoped rule (judged on the
 * request the scripted endpoint received); the 500-column table's badge says the last prompt
 * shortened it; the rule follows a rename and is only offered to a different survey.csv.
 */
import type { ScriptedReply } from '../testing/mock-llm/server.mjs';
import { expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

const SURVEY = ['respondent_id,region,income', '1,1,52', '2,2,40', '3,3,-9', '4,4,61'].join('\n');
const WIDE = 500;
const sensorsCsv = `${Array.from({ length: WIDE }, (_, i) => `sensor_reading_${i}`).join(',')}\n${Array.from({ length: 3 }, (_, r) => Array.from({ length: WIDE }, (_, i) => (r * 7 + i) % 97).join(',')).join('\n')}\n`;

const surveyDraft: ScriptedReply = {
  type: 'structured',
  when: 'data_dictionary',
  value: {
    row_meaning: 'one respondent of wave 3',
    grain: 'respondent_id',
    caveats: [],
    columns: [
      { name: 'respondent_id', description: 'Respondent number', unit: '', role: 'identifier', codes: [], missing: [] },
      { name: 'region', description: 'Region of residence', unit: '', role: 'dimension', codes: [{ code: '1', meaning: 'North' }, { code: '2', meaning: 'South' }, { code: '3', meaning: 'East' }, { code: '4', meaning: 'West' }], missing: [] },
      { name: 'income', description: 'Yearly net household income', unit: 'thousand EUR', role: 'measure', codes: [], missing: ['-9'] },
    ],
    joins: [],
  },
};
const sensorsDraft: ScriptedReply = {
  type: 'structured',
  when: 'data_dictionary',
  value: {
    row_meaning: 'one reading time',
    grain: '',
    caveats: [],
    columns: Array.from({ length: WIDE }, (_, i) => ({ name: `sensor_reading_${i}`, description: `Reading of sensor ${i} on the roof`, unit: 'volt', role: 'measure', codes: [], missing: [] })),
    joins: [],
  },
};

test('a tight budget sends the survey its codes and scoped rule, the wide table says it was shortened, the rule follows the content', async ({ app, page }) => {
  test.setTimeout(240_000);
  await configureEndpoint(page, mock, { key: 'sk-e2e-knowledge-budget', contextTokens: 8000 });
  const dictionary = page.getByRole('region', { name: 'Data dictionary' });

  await mock.script([surveyDraft]);
  await app.fileInput.setInputFiles({ name: 'survey.csv', mimeType: 'text/csv', buffer: Buffer.from(SURVEY) });
  await app.expectDataset('survey');
  await expect(dictionary.getByText('Draft written by the model — review it and accept')).toBeVisible({ timeout: 60_000 });
  await dictionary.getByRole('button', { name: 'Accept dictionary' }).click();
  await expect(dictionary.getByText('Accepted', { exact: true })).toBeVisible();

  await mock.reset();
  await mock.script([sensorsDraft]);
  await app.fileInput.setInputFiles({ name: 'sensors.csv', mimeType: 'text/csv', buffer: Buffer.from(sensorsCsv) });
  await app.expectDataset('sensors');
  await app.selectDataset('sensors');
  await expect(dictionary.getByText('Draft written by the model — review it and accept')).toBeVisible({ timeout: 60_000 });
  await dictionary.getByRole('button', { name: 'Accept dictionary' }).click();
  await expect(dictionary.getByText('Accepted', { exact: true })).toBeVisible();

  const rules = page.getByRole('region', { name: 'Workspace rules' });
  await rules.getByRole('textbox', { name: 'New rule' }).fill('Report region 1 as "the North (wave 3)".');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await rules.getByRole('combobox', { name: 'Scope of rule 1' }).selectOption('survey');
  await expect(rules.getByRole('combobox', { name: 'Scope of rule 1' })).toHaveValue('survey');

  await mock.reset();
  await mock.script([{ type: 'text', content: 'Incomes by region are as queried.' }]);
  await ask(page, 'What is the average income by region in the survey?');
  await expect(chat(page).answers.last()).toContainText('Incomes by region are as queried.', { timeout: 60_000 });
  const sent = (await mock.chatRequests()).find((r) => !r.raw_body.includes('"name":"data_dictionary"'));
  for (const fact of ['1 = North', '4 = West', 'Yearly net household income', 'unit: thousand EUR', 'missing when \\"-9\\"', '(for survey) Report region 1 as \\"the North (wave 3)\\".']) expect(sent?.raw_body).toContain(fact);
  expect(sent?.raw_body).toMatch(/Also available in less detail[^"]*sensors \(/);

  // The wide table's badge says what the last prompt did with it, not just "Accepted".
  await app.selectDataset('sensors');
  await expect(dictionary.getByText(`Accepted · shortened in the last prompt: 0 of ${WIDE} columns`)).toBeVisible({ timeout: 30_000 });

  // Renamed: the rule's scope follows the content.
  await app.rename('survey', 'survey_w3');
  await app.expectDataset('survey_w3');
  await expect(rules.getByRole('combobox', { name: 'Scope of rule 1' })).toHaveValue('survey_w3');

  // A different survey.csv: the rule is offered, not applied, until the user applies it.
  await app.remove('survey_w3');
  await app.fileInput.setInputFiles({ name: 'survey.csv', mimeType: 'text/csv', buffer: Buffer.from(['respondent_id,region,age', '1,2,30', '2,1,41'].join('\n')) });
  await app.expectDataset('survey');
  const offered = rules.getByRole('group', { name: 'Rule 1 offered' });
  await expect(offered).toContainText('written for an earlier file named survey');
  await expect(rules.getByRole('combobox', { name: 'Scope of rule 1' })).not.toHaveValue('survey');
  await offered.getByRole('button', { name: 'Apply rule 1 to this survey' }).click();
  await expect(rules.getByRole('combobox', { name: 'Scope of rule 1' })).toHaveValue('survey');
  await expect(offered).toHaveCount(0);
  expect(app.pageErrors).toEqual([]);
});
