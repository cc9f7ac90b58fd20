/** Compares a grid read from the page with native DuckDB's rows, tolerant of number formatting. */
import { expect } from '@playwright/test';

/** Parses a number as the UI may print it (`1,234.5`, `1 234,5` is not supported, `−3`). */
export function parseDisplayedNumber(text: string): number | null {
  const t = text.trim().replace(/[\u00a0\u202f\s,]/g, '').replace(/\u2212/g, '-');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  return Number(t);
}

function sameCell(actual: string, expected: string, relTol: number): boolean {
  if (actual.trim() === expected.trim()) return true;
  const a = parseDisplayedNumber(actual);
  const e = parseDisplayedNumber(expected);
  if (a === null || e === null) return false;
  const scale = Math.max(1, Math.abs(e));
  return Math.abs(a - e) <= relTol * scale;
}

/**
 * Asserts equal shape and cell-wise equality: text exactly, numbers within `relTol`
 * (the UI may round doubles for display; 1e-3 relative still catches any wrong aggregate).
 */
export function expectSameRows(actual: string[][], expected: string[][], relTol = 1e-3): void {
  const message = `page rows ${JSON.stringify(actual)}\nnative rows ${JSON.stringify(expected)}`;
  expect(actual.length, message).toBe(expected.length);
  actual.forEach((row, r) => {
    const want = expected[r] ?? [];
    expect(row.length, message).toBe(want.length);
    row.forEach((cell, c) => {
      expect(sameCell(cell, want[c] ?? '', relTol), `cell [${r}][${c}] ${JSON.stringify(cell)} vs ${JSON.stringify(want[c])}\n${message}`).toBe(true);
    });
  });
}
