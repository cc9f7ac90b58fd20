/**
 * The held-out judge: loads each file as a user would, then follows the load report (its
 * "Apply all" when it has one, else its first fix, up to three reads) and judges every state
 * against the file's ground truth. Counted: right on arrival, right after the report, silent
 * mistakes (wrong, and nothing said), false findings (a finding on a file that was right), and
 * damage (a fix that made a right value wrong).
 */
import type { DatasetInfo } from '../../../../../protocol/data';
import type { ReadOverrides } from '../../../../../protocol/loadReport';
import { quoteIdent } from '../../../../../shared/sql';
import type { AppHost } from '../real/realCorpus';
import type { HeldOutFile } from './files';

export interface Verdict {
  file: string;
  arrival: string[];
  /** What went wrong after following the report (empty: right). */
  after: string[];
  findings: string[];
  steps: string[];
  silent: boolean;
  falseFindings: number;
  /** Truth checks that held on arrival and fail after a fix. */
  damaged: string[];
}

async function wrongs(app: AppHost, info: DatasetInfo, truth: HeldOutFile['truth']): Promise<string[]> {
  const out: string[] = [];
  for (const [col, type] of Object.entries(truth.types)) {
    const got = info.columns.find((c) => c.name === col)?.type;
    if (got !== type) out.push(`${col}: ${got ?? '(missing)'}, want ${type}`);
  }
  for (const c of truth.checks ?? []) {
    let got: string;
    try {
      const v = (await app.rows(c.sql.replaceAll('{t}', quoteIdent(info.name))))[0]?.[0];
      got = typeof v === 'bigint' ? v.toString() : String(v);
    } catch (e) {
      got = `error ${String(e).slice(0, 80)}`;
    }
    if (got !== c.expect) out.push(`${c.sql}: ${got}, want ${c.expect}`);
  }
  return out;
}

export async function judge(app: AppHost, f: HeldOutFile): Promise<Verdict> {
  const o = await app.call('load', { source: { kind: 'file', file: new File([f.text], f.name) }, options: { loadId: f.name } });
  if (!o.ok) return { file: f.name, arrival: [`load failed: ${o.message}`], after: [`load failed`], findings: [], steps: [], silent: true, falseFindings: 0, damaged: [] };
  let info = o.datasets[0]!;
  try {
    const arrival = await wrongs(app, info, f.truth);
    const findings = info.report?.findings ?? [];
    // Column names are said of right files too (empty headers renamed): not a claim that the read is wrong.
    const claims = findings.filter((x) => x.kind !== 'column_names');
    const v: Verdict = {
      file: f.name,
      arrival,
      after: arrival,
      findings: findings.map((x) => `${x.kind}${x.fix ? '+fix' : ''}`),
      steps: [],
      silent: arrival.length > 0 && claims.length === 0,
      falseFindings: arrival.length === 0 ? claims.length : 0,
      damaged: [],
    };
    for (let step = 0; step < 3 && v.after.length > 0; step++) {
      const report = info.report;
      const next: { label: string; options: ReadOverrides } | undefined = report?.applyAll ?? report?.findings.find((x) => x.fix)?.fix;
      if (!next) break;
      const r = await app.call('reread', { name: info.name, options: next.options });
      if (!r.ok) {
        v.steps.push(`${next.label}: failed (${r.message.slice(0, 80)})`);
        break;
      }
      info = r.dataset;
      v.steps.push(next.label);
      v.after = await wrongs(app, info, f.truth);
    }
    // A check right on arrival and wrong after the fixes: damage.
    const before = new Set(arrival);
    const held = [...Object.keys(f.truth.types), ...(f.truth.checks ?? []).map((c) => c.sql)].filter((k) => ![...before].some((w) => w.startsWith(`${k}:`)));
    v.damaged = v.after.filter((w) => held.some((k) => w.startsWith(`${k}:`)));
    return v;
  } finally {
    await app.call('remove', { name: info.name });
  }
}

export function summary(verdicts: readonly Verdict[]): string {
  const n = verdicts.length;
  const arrival = verdicts.filter((v) => v.arrival.length === 0).length;
  const after = verdicts.filter((v) => v.after.length === 0).length;
  const madeRight = verdicts.filter((v) => v.arrival.length > 0 && v.after.length === 0).length;
  const silent = verdicts.filter((v) => v.silent).length;
  const falseF = verdicts.reduce((a, v) => a + v.falseFindings, 0);
  const damaged = verdicts.filter((v) => v.damaged.length > 0).length;
  const rows = verdicts.map(
    (v) =>
      `${v.arrival.length === 0 ? 'right' : 'wrong'} → ${v.after.length === 0 ? 'right' : 'wrong'}  ${v.file}  [${v.findings.join(', ')}]${v.steps.length ? `  via ${v.steps.join(' → ')}` : ''}${v.after.length ? `\n      still: ${v.after.join('; ')}` : ''}${v.damaged.length ? `\n      DAMAGED: ${v.damaged.join('; ')}` : ''}`,
  );
  return [
    `Held-out corpus: ${n} files`,
    ...rows,
    `right on arrival: ${arrival}/${n}; right after the report: ${after}/${n} (made right: ${madeRight}); silent mistakes: ${silent}; false findings: ${falseF}; files damaged by a fix: ${damaged}`,
  ].join('\n');
}
