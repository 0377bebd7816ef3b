import { DOT, LOWER_E, MINUS, UPPER_E, ZERO } from './json-chars.ts';

export interface NumberLiteral {
  /** The literal exactly as written in the body, e.g. "1e400", "-0", "1.0", "9007199254740993.5". */
  text: string;
  /** Whether the literal's exact decimal value is a whole number (1.0, 1e400, -0 are; 0.5, 1e-400 are not). */
  integral: boolean;
}

// What a number literal means beside the double JSON.parse makes of it: whether its exact value is whole,
// and the double that stands for it so that a schema's type, minimum and maximum judge it as written.

const TWO_TO_53 = 2 ** 53;

/** Whether a number literal's exact decimal value is whole, from its digits and exponent alone. */
export function isIntegral(text: string): boolean {
  let [fractionDigits, trailingZeros, inFraction, zero] = [0, 0, false, true];
  let i = text.charCodeAt(0) === MINUS ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === UPPER_E || c === LOWER_E) break;
    if (c === DOT) inFraction = true;
    else {
      if (inFraction) fractionDigits++;
      trailingZeros = c === ZERO ? trailingZeros + 1 : 0;
      zero &&= c === ZERO;
    }
  }
  return zero || exponent(text) - fractionDigits + trailingZeros >= 0;
}

// Clamped far beyond any digit count a string can hold, so a huge exponent keeps its sign and its effect.
function exponent(text: string): number {
  const at = Math.max(text.indexOf('e'), text.indexOf('E'));
  if (at === -1) return 0;
  let value = 0;
  for (let i = at + 1; i < text.length; i++) if (text.charCodeAt(i) >= ZERO) value = Math.min(value * 10 + text.charCodeAt(i) - ZERO, 1e12);
  return text.charCodeAt(at + 1) === MINUS ? -value : value;
}

/** What stands for a literal in `value`, so that type, minimum and maximum judge it as its exact value. */
export function standIn(text: string, parsed: number, integral: boolean): number {
  if (parsed === Infinity || parsed === -Infinity) return Math.sign(parsed) * Number.MAX_VALUE;
  const zero = integral && /^-?[0.]*(?:[eE]|$)/.test(text);
  if (parsed === 0 && !zero) return (text.charCodeAt(0) === MINUS ? -1 : 1) * Number.MIN_VALUE;
  if (!integral && Number.isInteger(parsed) && Math.abs(parsed) < TWO_TO_53) return nextDouble(parsed, Math.abs(parsed) === wholePart(text));
  return parsed;
}

/** The whole part of |x| for a literal that is not whole (so its point falls inside its digits). */
function wholePart(text: string): number {
  const [whole, fraction = ''] = text.replace('-', '').split(/[eE]/)[0].split('.');
  const point = whole.length + exponent(text);
  return point <= 0 ? 0 : Number((whole + fraction).slice(0, point));
}

const double = new Float64Array(1);
const bits = new BigUint64Array(double.buffer);

/** The neighbouring double of a non-zero `d`, away from zero or towards it. */
function nextDouble(d: number, awayFromZero: boolean): number {
  double[0] = d;
  bits[0] += awayFromZero ? 1n : -1n;
  return double[0];
}
