/**
 * RFC 3339 `date-time` (the JSON Schema format): full-date "T" full-time with a mandatory offset.
 * The server stores the instant (epoch milliseconds) and answers its `toISOString()` form.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MINUTES_PER_DAY = 24 * 60;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** Epoch milliseconds of an RFC 3339 date-time, or undefined when the text is not one. */
export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offsetMinutes = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  if (Number(oh ?? 0) > 23 || Number(om ?? 0) > 59) return undefined;
  if (second === 60) {
    // A leap second exists only at 23:59:60 UTC (RFC 3339 section 5.7).
    const utcMinute = (((hour * 60 + minute - offsetMinutes) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
    if (utcMinute !== MINUTES_PER_DAY - 1) return undefined;
  }
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0..99 as written.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), Number((frac ?? '').slice(0, 3).padEnd(3, '0')));
  return date.getTime() + (second === 60 ? 1000 : 0) - offsetMinutes * 60_000;
}

export function isDateTime(text: string): boolean {
  return parseDateTime(text) !== undefined;
}

/** The canonical answer form of a stored instant. */
export function formatInstant(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
