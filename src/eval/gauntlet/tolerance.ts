/** Whether a reported number is the expected one, within a question's tolerance. */
import type { Tolerance } from './questions';

export function within(actual: number, expected: number, tol: Tolerance): boolean {
  const allowed = Math.max(tol.abs ?? 0, (tol.rel ?? 0) * Math.abs(expected));
  // A hair over the bound is float noise (0.1 + 0.2), not a different answer.
  return Math.abs(actual - expected) <= allowed + 1e-9 * Math.max(1, Math.abs(expected));
}
