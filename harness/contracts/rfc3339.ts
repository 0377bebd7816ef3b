// RFC 3339 section 5.6 `date-time`: full-date "T" full-time, where full-time requires an offset ("Z" or
// ±hh:mm). ABNF literals are case-insensitive, so "t" and "z" are allowed (RFC 3339 5.6, NOTE). Scanned by
// character codes rather than a regular expression: it runs on every date-time of every list.

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const [ZERO, NINE, DASH, COLON, DOT, PLUS, T, T_LOWER, Z, Z_LOWER] = [48, 57, 45, 58, 46, 43, 84, 116, 90, 122];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** The number written by `count` ASCII digits at `at`, or -1. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE) return -1;
    value = value * 10 + (c - ZERO);
  }
  return value;
}

// A leap second (second 60) is only possible at 23:59 UTC (RFC 3339 5.7).
function isLeapSecondMinute(hour: number, minute: number, offsetMinutes: number): boolean {
  return (((hour * 60 + minute - offsetMinutes) % 1440) + 1440) % 1440 === 23 * 60 + 59;
}

/** Where the offset starts: after the seconds and an optional fraction; -1 for a malformed fraction. */
function offsetStart(text: string): number {
  if (text.charCodeAt(19) !== DOT) return 19;
  let i = 20;
  while (i < text.length && text.charCodeAt(i) >= ZERO && text.charCodeAt(i) <= NINE) i++;
  return i === 20 ? -1 : i;
}

/** The offset in minutes east of UTC, or NaN when it is not "Z" or ±hh:mm ending the text. */
function offsetMinutes(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === Z || c === Z_LOWER) return at + 1 === text.length ? 0 : NaN;
  if ((c !== PLUS && c !== DASH) || at + 6 !== text.length || text.charCodeAt(at + 3) !== COLON) return NaN;
  const hours = digits(text, at + 1, 2);
  const minutes = digits(text, at + 4, 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return NaN;
  return (c === PLUS ? 1 : -1) * (hours * 60 + minutes);
}

export function isRfc3339DateTime(text: string): boolean {
  if (text.length < 20 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return false;
  const t = text.charCodeAt(10);
  if ((t !== T && t !== T_LOWER) || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return false;
  const [year, month, day] = [digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2)];
  const [hour, minute, second] = [digits(text, 11, 2), digits(text, 14, 2), digits(text, 17, 2)];
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  if (day > (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1])) return false;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return false;
  const start = offsetStart(text);
  const offset = start < 0 ? NaN : offsetMinutes(text, start);
  if (Number.isNaN(offset)) return false;
  return second < 60 || isLeapSecondMinute(hour, minute, offset);
}
