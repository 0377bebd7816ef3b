// RFC 3339 section 5.6 `date-time`: full-date "T" full-time, where full-time requires an offset
// ("Z" or ±hh:mm). ABNF literals are case-insensitive, so "t" and "z" are allowed (RFC 3339 5.6, NOTE).
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysIn(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

// A leap second (second 60) is only possible at 23:59 UTC (RFC 3339 5.7).
function isLeapSecondMinute(hour: number, minute: number, sign: string | undefined, offH: number, offM: number): boolean {
  const offset = sign === undefined ? 0 : (sign === '+' ? 1 : -1) * (offH * 60 + offM);
  const utcMinutes = (((hour * 60 + minute - offset) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}

export function isRfc3339DateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const sign = m[8];
  const offH = sign === undefined ? 0 : Number(m[9]);
  const offM = sign === undefined ? 0 : Number(m[10]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (hour > 23 || minute > 59 || offH > 23 || offM > 59) return false;
  if (second < 60) return true;
  return second === 60 && isLeapSecondMinute(hour, minute, sign, offH, offM);
}
