import { isTimeZone } from '../../shared/zonedTime';

/**
 * The user's time zone: where grids show TIMESTAMP WITH TIME ZONE values and what the model is
 * told is local time. Empty means the browser's own. Kept in this browser (localStorage).
 */

export const TIME_ZONE_KEY = 'dataseer:timeZone';

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function stored(): string {
  try {
    const v = globalThis.localStorage?.getItem(TIME_ZONE_KEY) ?? '';
    return v && isTimeZone(v) ? v : '';
  } catch {
    return '';
  }
}

class TimeZoneSetting {
  /** The zone the user chose; '' for the browser's. */
  chosen = $state(stored());
  readonly effective = $derived(this.chosen || browserTimeZone());

  /** Saves a zone ('' = the browser's); false when the name is not a time zone this browser knows. */
  set(zone: string): boolean {
    const z = zone.trim();
    if (z !== '' && !isTimeZone(z)) return false;
    this.chosen = z;
    try {
      if (z) globalThis.localStorage?.setItem(TIME_ZONE_KEY, z);
      else globalThis.localStorage?.removeItem(TIME_ZONE_KEY);
    } catch {
      // Kept for this tab only.
    }
    return true;
  }
}

export const timeZoneSetting = new TimeZoneSetting();
