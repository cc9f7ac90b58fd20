/**
 * A tool step as a person reads it: a title in words ("Ran a query on penguins") and a one-line
 * summary of what came back ("1 row · 29 ms"), from the tool's contract shapes. The raw tool name
 * stays available beside it for those who want it.
 */
import type { ToolStep } from './turns';
import { asPythonOutput, asTable, asVerdict, formatMs } from './format';
import { plural } from '../../shared/text';

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** The first table a query reads, for its title (the word after FROM; a title, not a parser). */
function firstTable(sql: unknown): string | null {
  if (typeof sql !== 'string') return null;
  const m = /\bfrom\s+("([^"]+)"|[A-Za-z_][\w]*)/i.exec(sql);
  return m ? (m[2] ?? m[1] ?? null) : null;
}

export function stepTitle(step: ToolStep): string {
  const a = step.args;
  const failed = step.state === 'failed';
  switch (step.tool) {
    case 'profile_data': {
      const d = field(a, 'dataset');
      return `${failed ? 'Could not profile' : 'Profiled'} ${typeof d === 'string' ? d : 'the data'}`;
    }
    case 'run_sql': {
      const t = firstTable(field(a, 'sql'));
      return failed ? `A query${t ? ` on ${t}` : ''} failed` : `Ran a query${t ? ` on ${t}` : ''}`;
    }
    case 'run_python':
      return failed ? 'Python code failed' : 'Ran Python code';
    case 'create_chart': {
      const type = field(field(a, 'chart'), 'type');
      return failed ? 'Could not draw the chart' : `Drew a ${typeof type === 'string' ? type : ''} chart`.replace('  ', ' ');
    }
    case 'validate_results':
      return 'Checked the result';
    case 'search_examples':
      return 'Looked for similar worked examples';
    default:
      return step.tool.replace(/_/g, ' ');
  }
}

/** What came back, in one line; `''` while the step runs. */
export function stepSummary(step: ToolStep): string {
  const parts: string[] = [];
  if (step.state === 'running') return 'running…';
  if (step.state === 'failed') parts.push(firstLine(step.error ?? 'failed'));
  else {
    const out = step.output;
    switch (step.tool) {
      case 'profile_data': {
        const rows = field(out, 'row_count');
        const quality = field(out, 'quality');
        if (typeof rows === 'number') parts.push(plural(rows, 'row'));
        if (typeof quality === 'object' && quality !== null) parts.push(plural(Object.keys(quality).length, 'column'));
        break;
      }
      case 'run_sql': {
        const t = asTable(out);
        if (t) parts.push(`${plural(t.row_count, 'row')}${t.truncated ? ' (capped)' : ''}`);
        break;
      }
      case 'run_python': {
        const p = asPythonOutput(out);
        const error = field(out, 'error');
        const type = field(error, 'type');
        const message = field(error, 'message');
        if (error) parts.push(`${typeof type === 'string' ? type : 'Error'}${typeof message === 'string' ? `: ${firstLine(message)}` : ''}`);
        else if (p?.figure) parts.push('a figure');
        else if (p && p.result !== undefined && p.result !== null) parts.push('a result');
        else if (p?.stdout.trim()) parts.push('printed output');
        break;
      }
      case 'create_chart': {
        const points = field(out, 'points');
        if (typeof points === 'number') parts.push(plural(points, 'point'));
        break;
      }
      case 'validate_results': {
        const v = asVerdict(out);
        if (v) parts.push(v.is_valid ? 'looks right' : `${plural(v.issues.length, 'issue')} found`);
        break;
      }
      case 'search_examples':
        if (Array.isArray(out)) parts.push(plural(out.length, 'example'));
        break;
    }
  }
  if (step.elapsed_ms !== undefined) parts.push(formatMs(step.elapsed_ms));
  return parts.join(' · ');
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}
