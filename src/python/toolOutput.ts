/**
 * A finished run in the shape the agent's `run_python` tool returns to the model
 * (AGENT-CONTRACT.md): `{ stdout, result, figure?, error?, elapsed_ms }`.
 */
import type { JsonValue, PlotlyFigure, PyError, PyResult, RunOutcome } from '../../workers/protocol/python';

export interface RunPythonOutput {
  stdout: string;
  result: JsonValue;
  figure?: PlotlyFigure;
  error?: PyError;
  elapsed_ms: number;
}

interface Chunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

function resultJson(result: PyResult | undefined): JsonValue {
  if (!result) return null;
  switch (result.kind) {
    case 'table':
      return { columns: result.columns, rows: result.rows, row_count: result.rowCount, truncated: result.truncated };
    case 'scalar':
      return result.value;
    case 'json':
      return result.value;
    case 'repr':
      return result.text;
  }
}

export function toRunPythonOutput(output: Chunk[], outcome: RunOutcome): RunPythonOutput {
  const stdout = output.filter((c) => c.stream === 'stdout').map((c) => c.text).join('');
  const stderr = output.filter((c) => c.stream === 'stderr').map((c) => c.text).join('');
  const text = stderr ? `${stdout}${stdout && !stdout.endsWith('\n') ? '\n' : ''}[stderr]\n${stderr}` : stdout;
  if (!outcome.ok) return { stdout: text, result: null, error: outcome.error, elapsed_ms: outcome.elapsedMs };
  const out: RunPythonOutput = { stdout: text, result: resultJson(outcome.result), elapsed_ms: outcome.elapsedMs };
  if (outcome.figure) out.figure = outcome.figure;
  return out;
}
