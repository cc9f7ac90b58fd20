/**
 * A column's codes in words for the model and for exports: codes without a meaning (a dbt
 * `accepted_values` test lists values, not what they mean) are named as such, never sent as
 * `1 = ; 2 = ;` (issue 32).
 */
import type { CodeMeaning } from '../../protocol/agent/knowledge';

export function describeCodes(codes: readonly CodeMeaning[]): string {
  const withMeaning = codes.filter((c) => c.meaning.trim() !== '');
  const bare = codes.filter((c) => c.meaning.trim() === '');
  const parts: string[] = [];
  if (withMeaning.length) parts.push(`codes: ${withMeaning.map((c) => `${c.code} = ${c.meaning.trim()}`).join('; ')}`);
  if (bare.length) parts.push(`${withMeaning.length ? 'other allowed values' : 'allowed values'} (meanings not given): ${bare.map((c) => c.code).join(', ')}`);
  return parts.join('; ');
}
