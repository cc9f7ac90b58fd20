/// <reference types="node" />
/**
 * The held-out judge (judge.ts) over files written with their ground truth before the checks ran
 * on them (files.ts). Prints the counts; fails on a fix that damages a right value, or a right
 * file made wrong.
 */
import { describe, expect, it } from 'vitest';
import { openHost } from '../real/realCorpus';
import { HELD_OUT } from './files';
import { judge, summary, type Verdict } from './judge';

describe('held-out corpus', { timeout: 600_000 }, () => {
  it('follows each file\'s load report and never damages a right value', async () => {
    const app = await openHost();
    const verdicts: Verdict[] = [];
    for (const f of HELD_OUT) verdicts.push(await judge(app, f));
    console.log(summary(verdicts));
    expect(verdicts.flatMap((v) => v.damaged.map((d) => `${v.file}: ${d}`))).toEqual([]);
    expect(verdicts.filter((v) => v.arrival.length === 0 && v.after.length > 0).map((v) => v.file)).toEqual([]);
  });
});
