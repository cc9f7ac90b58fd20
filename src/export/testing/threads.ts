/** Conversations for the export tests (tests only; never imported by the app). */
import type { DatasetInfo } from '../../../protocol/data';
import type { EndpointSettings } from '../../../protocol/agent/wire';
import type { FinalOutput } from '../../../protocol/agent/final';
import type { PlotlyFigure } from '../../../protocol/figure';
import type { ChatTurn, Step, ToolStep } from '../../conversation/turns';
import type { ExportInput } from '../thread';

export const KEY = 'sk-test-Secret-9f8e7d6c5b';
export const SETTINGS: EndpointSettings = { baseUrl: 'https://llm.example.com/v1', apiKey: KEY, model: 'gpt-test-mini' };

export const PENGUINS: DatasetInfo = {
  name: 'penguins',
  fileName: 'penguins.json',
  format: 'json',
  rowCount: 344,
  columns: [
    { name: 'Species', type: 'VARCHAR' },
    { name: 'Body Mass (g)', type: 'BIGINT' },
  ],
  sizeBytes: 1000,
  loadedAt: 0,
  persisted: true,
} as DatasetInfo;

export const HOSTILE = `<script>alert(1)</script><img src=x onerror="alert(2)"> [x](javascript:alert(3)) | pipe \`tick\` """ ''' \\ =cmd|' /C calc'!A0`;

export function final(answer: string, extra: Partial<FinalOutput> = {}): FinalOutput {
  return { answer, confidence: 0.9, output_type: 'analysis', caveats: [], reasoning_trace: [], ungrounded_numbers: [], failed_attempts: [], ...extra };
}

export function turn(question: string, steps: Step[], f: FinalOutput | null, extra: Partial<ChatTurn> = {}): ChatTurn {
  return { id: question, question, steps, text: f?.answer ?? '', final: f, error: null, state: 'done', ...extra };
}

export const SQL = `SELECT "Species", round(avg("Body Mass (g)"), 2) AS mean_mass FROM penguins GROUP BY 1 ORDER BY 1`;

export const sqlStep = (sql = SQL, rows: unknown[][] = [['Adelie', 3700.66], ['Chinstrap', 3733.09], ['Gentoo', 5076.02]]): ToolStep => ({
  kind: 'tool',
  call_id: 'c1',
  tool: 'run_sql',
  args: { sql },
  state: 'done',
  output: { columns: [{ name: 'Species', type: 'VARCHAR' }, { name: 'mean_mass', type: 'DOUBLE' }], rows, row_count: rows.length, truncated: false, elapsed_ms: 4 },
  elapsed_ms: 4,
});

export const FIGURE: PlotlyFigure = {
  data: [{ type: 'bar', x: ['Adelie', 'Chinstrap', 'Gentoo'], y: [3700.66, 3733.09, 5076.02] }],
  layout: { title: { text: 'mean_mass by Species' } },
};

export const chartStep: ToolStep = {
  kind: 'tool',
  call_id: 'c2',
  tool: 'create_chart',
  args: { sql: SQL, chart: { type: 'bar', x: 'Species', y: 'mean_mass' } },
  state: 'done',
  output: { figure_id: 'c2', points: 3, summary: 'bar chart of 3 rows' },
};

export function input(turns: ChatTurn[], extra: Partial<ExportInput> = {}): ExportInput {
  return { turns, settings: SETTINGS, datasets: [PENGUINS], title: 'Penguin masses', now: new Date('2026-11-22T18:30:00Z'), ...extra };
}

export type ThreadName = 'sqlOnly' | 'python' | 'charts' | 'emptyAnswer' | 'hostile';

/** The threads every format is checked on (fresh copies each call). */
export function threads(): Record<ThreadName, ExportInput> {
  return {
    sqlOnly: input([turn('Mean mass by species?', [sqlStep()], final('Gentoo are heaviest at **5076.02 g**.', { caveats: ['Some masses are missing.'] }))]),
    python: input([
      turn(
        'Count with Python',
        [
          { kind: 'tool', call_id: 'p1', tool: 'run_python', args: { code: 'n = len(df)\nprint("rows:", n)\nresult = n' }, state: 'done', output: { stdout: 'rows: 344\n', result: 344, elapsed_ms: 10 } },
          { kind: 'tool', call_id: 'p2', tool: 'run_python', args: { code: 'result = 1/0' }, state: 'failed', error: 'Error: ZeroDivisionError: division by zero\nTraceback (most recent call last):\n  File "<python>", line 1' },
          {
            kind: 'tool',
            call_id: 'p3',
            tool: 'run_python',
            args: { code: 'result = sql("SELECT 1 AS a")' },
            state: 'done',
            output: { stdout: '', result: { columns: ['a'], rows: [[1]], row_count: 1, truncated: false }, elapsed_ms: 3 },
          },
        ],
        final('There are 344 penguins.'),
      ),
    ]),
    charts: input([turn('Chart the masses', [sqlStep(), chartStep, { kind: 'status', status: 'validating', detail: 'checking' }], final('See the chart.', { figures: [FIGURE], output_type: 'visualization' }))]),
    emptyAnswer: input([turn('Nothing?', [], final('')), turn('Stopped', [], null, { state: 'stopped', error: { message: 'Stopped by you.', retryable: true } })]),
    hostile: input(
      [
        turn(
          HOSTILE,
          [
            sqlStep(`SELECT '${HOSTILE.replace(/'/g, "''")}' AS "${HOSTILE.replace(/"/g, '""')}"`, [[HOSTILE, null]]),
            { kind: 'note', text: HOSTILE },
            { kind: 'tool', call_id: 'h2', tool: 'run_sql', args: { sql: 'SELECT nope' }, state: 'failed', error: `Error: Binder Error: ${HOSTILE}` },
          ],
          final(HOSTILE, { caveats: [HOSTILE], ungrounded_numbers: ['42'] }),
        ),
      ],
      { title: HOSTILE },
    ),
  };
}
