/** How a corpus file's result differs from what its manifest entry expects (empty: as expected). */
import type { ManifestEntry } from './manifest';
import type { FileResult } from './realCorpus';

export function expectationProblems(e: ManifestEntry, r: FileResult): string[] {
  const out: string[] = [];
  const at = (s: string) => out.push(`${e.file}: ${s}`);
  if (r.error && !e.expect.error) at(`error ${r.error}`);
  if (e.expect.error) return out;
  if (r.differs.length > 0) at(`differs from native DuckDB in ${r.differs.join(', ')}`);
  for (const f of r.fixes) if (!f.ok) at(`fix ${f.kind} ${JSON.stringify(f.options)} ${f.error ?? `differs in ${f.differs.join(', ')}`}`);
  for (const d of r.dateSqlFailures) at(`date SQL: ${d}`);
  const got = r.findings.map((f) => `${f.kind}:${[...f.columns].sort().join('|')}${f.fix ? '+fix' : ''}`).sort();
  const want = [...e.expect.findings].sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) at(`findings ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  const tz = [...r.timeZones].sort();
  if (JSON.stringify(tz) !== JSON.stringify([...(e.expect.timeZones ?? [])].sort())) at(`time-zone columns ${JSON.stringify(tz)}, expected ${JSON.stringify(e.expect.timeZones ?? [])}`);
  return out;
}
