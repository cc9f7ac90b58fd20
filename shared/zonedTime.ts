/**
 * An instant as wall time in a time zone with its offset ("2024-03-10 03:30:00+02:00"): how grids
 * show TIMESTAMP WITH TIME ZONE values, and UTC-stored ones from a zoned file ("…+00:00").
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is an IANA zone this browser knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function zonedTimestamp(ms: number, timeZone = 'UTC'): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return String(ms);
  const parts: Record<string, string> = {};
  for (const p of formatter(isTimeZone(timeZone) ? timeZone : 'UTC').formatToParts(d)) parts[p.type] = p.value;
  const millis = ((ms % 1000) + 1000) % 1000;
  const frac = millis ? `.${String(Math.round(millis)).padStart(3, '0')}` : '';
  // "GMT+02:00" → "+02:00"; UTC itself is written "GMT".
  const offset = (parts.timeZoneName ?? 'GMT').replace(/^GMT/, '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}${frac}${offset}`;
}
