/**
 * What one gauntlet run streamed, folded into what the checker and the report read: the final
 * output or error, statuses, tool calls and errors, retries, the validation verdict and the
 * chart calls' arguments.
 */
import type { AgentEvent, StatusKind } from '../../../protocol/agent/wire';
import type { FinalOutput } from '../../../protocol/agent/final';
import type { RunRecord } from './check';

export interface RunTrace extends RunRecord {
  toolCalls: number;
  retries: number;
  /** The code the run executed (SQL and Python), for `Add to examples`. */
  code: string[];
}

function isValidationReport(v: unknown): v is { is_valid: boolean } {
  return typeof v === 'object' && v !== null && typeof (v as { is_valid?: unknown }).is_valid === 'boolean';
}

export function traceOf(events: readonly AgentEvent[]): RunTrace {
  let final: FinalOutput | null = null;
  let error: RunRecord['error'] = null;
  const statuses: StatusKind[] = [];
  let toolErrors = 0;
  let toolCalls = 0;
  let validation: boolean | null = null;
  const charts: unknown[] = [];
  const code: string[] = [];
  for (const e of events) {
    switch (e.type) {
      case 'final':
        final = e.output;
        break;
      case 'error':
        error = { message: e.message, ...(e.kind ? { kind: e.kind } : {}) };
        break;
      case 'status':
        statuses.push(e.kind);
        break;
      case 'tool_start': {
        toolCalls++;
        const args = e.args as { sql?: unknown; code?: unknown } | null;
        if (e.tool === 'create_chart') charts.push(e.args);
        if (typeof args?.sql === 'string') code.push(args.sql);
        if (typeof args?.code === 'string') code.push(args.code);
        break;
      }
      case 'tool_error':
        toolErrors++;
        break;
      case 'tool_end':
        if (e.tool === 'validate_results' && isValidationReport(e.output)) validation = e.output.is_valid;
        break;
      default:
        break;
    }
  }
  return {
    final,
    error,
    statuses,
    toolErrors,
    validation,
    chartText: JSON.stringify(charts),
    toolCalls,
    retries: statuses.filter((s) => s === 'retrying').length,
    code: final?.code?.length ? final.code : code,
  };
}
