/**
 * The date groups of the conversations list (Today, Yesterday, Previous 7 days, Earlier), by the
 * reader's own calendar days: a conversation from 23:50 yesterday is "Yesterday", not "Today".
 */
export type DayGroup = 'Today' | 'Yesterday' | 'Previous 7 days' | 'Earlier';

const DAY_MS = 86_400_000;

/** Midnight of the local calendar day of `d`, as a day count that ignores daylight-saving hours. */
function localDay(d: Date): number {
  return Math.round(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / DAY_MS);
}

export function dayGroup(updatedAt: string, now: Date): DayGroup {
  const at = new Date(updatedAt);
  if (Number.isNaN(at.getTime())) return 'Earlier';
  const days = localDay(now) - localDay(at);
  if (days <= 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days < 7) return 'Previous 7 days';
  return 'Earlier';
}

/** For a list sorted newest first: the group label to show above item `i`, or null (same as the one before). */
export function groupLabels(updatedAts: readonly string[], now: Date): (DayGroup | null)[] {
  let previous: DayGroup | null = null;
  return updatedAts.map((u) => {
    const g = dayGroup(u, now);
    const label = g === previous ? null : g;
    previous = g;
    return label;
  });
}
