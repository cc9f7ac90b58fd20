import { describe, expect, it } from 'vitest';
import { dayGroup, groupLabels } from './threadGroups';

// Local times on purpose: the groups follow the reader's calendar, whatever the runner's zone.
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).toISOString();
const now = new Date(2026, 10, 28, 9, 30);

describe('conversation date groups', () => {
  it('follow calendar days, not 24-hour spans', () => {
    expect(dayGroup(at(2026, 11, 28, 0, 5), now)).toBe('Today');
    expect(dayGroup(at(2026, 11, 27, 23, 50), now)).toBe('Yesterday');
    expect(dayGroup(at(2026, 11, 27, 0, 1), now)).toBe('Yesterday');
    expect(dayGroup(at(2026, 11, 26, 23, 59), now)).toBe('Previous 7 days');
    expect(dayGroup(at(2026, 11, 22), now)).toBe('Previous 7 days');
    expect(dayGroup(at(2026, 11, 21), now)).toBe('Earlier');
    expect(dayGroup(at(2025, 1, 1), now)).toBe('Earlier');
  });

  it('puts a clock a little ahead (a later time today, another device) under Today, and a bad date under Earlier', () => {
    expect(dayGroup(at(2026, 11, 28, 23), now)).toBe('Today');
    expect(dayGroup('not a date', now)).toBe('Earlier');
  });

  it('labels only the first item of each group in a newest-first list', () => {
    expect(groupLabels([at(2026, 11, 28, 9), at(2026, 11, 28, 8), at(2026, 11, 27), at(2026, 10, 1), at(2026, 9, 1)], now)).toEqual([
      'Today',
      null,
      'Yesterday',
      'Earlier',
      null,
    ]);
    expect(groupLabels([], now)).toEqual([]);
  });
});
