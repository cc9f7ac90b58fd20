/**
 * A windowed list whose rows differ in height (issue 37: an import preview's metrics, whose long
 * expressions and reasons wrap): each row's height is measured once it is drawn, the others are
 * taken as the mean of those measured (the estimate before any), and the window is found from the
 * offsets. Only the drawn rows are ever measured.
 */
import type { ListWindow } from './listWindow';

export class RowHeights {
  readonly count: number;
  readonly #estimate: number;
  /** A drawn row's height; NaN until it is measured. */
  #heights: Float64Array;
  #measured = 0;
  #measuredSum = 0;
  /** `#offsets[i]`: the px above row i; `#offsets[count]`: the whole list. Rebuilt lazily after a change. */
  #offsets: Float64Array;
  #stale = true;

  constructor(count: number, estimate: number) {
    this.count = Math.max(0, count);
    this.#estimate = Math.max(1, estimate);
    this.#heights = new Float64Array(this.count).fill(Number.NaN);
    this.#offsets = new Float64Array(this.count + 1);
  }

  /** Records a drawn row's height; says whether it changed (so the window is worked out again). */
  set(index: number, height: number): boolean {
    if (index < 0 || index >= this.count || !(height > 0)) return false;
    const was = this.#heights[index]!;
    if (Math.abs(was - height) < 0.5) return false;
    if (Number.isNaN(was)) this.#measured++;
    else this.#measuredSum -= was;
    this.#measuredSum += height;
    this.#heights[index] = height;
    this.#stale = true;
    return true;
  }

  #build(): Float64Array {
    if (this.#stale) {
      const guess = this.#measured ? this.#measuredSum / this.#measured : this.#estimate;
      for (let i = 0; i < this.count; i++) {
        const h = this.#heights[i]!;
        this.#offsets[i + 1] = this.#offsets[i]! + (Number.isNaN(h) ? guess : h);
      }
      this.#stale = false;
    }
    return this.#offsets;
  }

  /** The px above row `index` (`count`: the whole list's height). */
  offset(index: number): number {
    return this.#build()[Math.min(Math.max(0, index), this.count)]!;
  }

  /** The row at `y` px from the list's top (the last one past the end). */
  indexAt(y: number): number {
    const offsets = this.#build();
    let lo = 0;
    let hi = Math.max(0, this.count - 1);
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (offsets[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The rows in view and `overscan` either side; before/after: the px the rows not drawn take. */
  window(scrollTop: number, viewportHeight: number, overscan: number): ListWindow {
    if (this.count === 0) return { start: 0, end: 0, before: 0, after: 0 };
    const first = this.indexAt(Math.max(0, scrollTop));
    const last = this.indexAt(Math.max(0, scrollTop) + Math.max(0, viewportHeight));
    const start = Math.max(0, first - overscan);
    const end = Math.min(this.count, last + 1 + overscan);
    return { start, end, before: this.offset(start), after: this.offset(this.count) - this.offset(end) };
  }
}
