import { absolute, significantDigits, type CalculatorValue } from './rational.ts';

/** Integers up to this many digits are printed in full; longer ones in scientific notation. */
const MAX_INTEGER_DIGITS = 100;
/** A terminating decimal with up to this many significant digits is printed exactly. */
const MAX_EXACT_DIGITS = 20;
/** Everything else is rounded to this many significant digits, which hides float noise. */
const DISPLAY_DIGITS = 12;

/**
 * Formats a value for people and models: exact integers in full (up to 100 digits), terminating
 * decimals exactly (up to 20 significant digits), anything else rounded to 12 significant digits
 * with trailing zeros removed. Plain notation between 1e-7 and 1e21, scientific ("1.5e+21") outside.
 */
export function formatValue(value: CalculatorValue): string {
  if (value.kind === 'approximate') return formatApproximate(value.value);
  const { numerator, denominator } = value;
  if (numerator === 0n) return '0';
  const sign = numerator < 0n ? '-' : '';
  const magnitude = absolute(numerator);
  if (denominator === 1n && magnitude.toString().length <= MAX_INTEGER_DIGITS) {
    return `${sign}${magnitude}`;
  }
  const precise = significantDigits(magnitude, denominator, MAX_EXACT_DIGITS);
  const shown = precise.isExact ? precise : significantDigits(magnitude, denominator, DISPLAY_DIGITS);
  return sign + layOut(shown.digits, shown.exponent);
}

function formatApproximate(value: number): string {
  if (value === 0) return '0';
  // toExponential always yields "d.ddd…e±x", which splits cleanly into digits and exponent.
  const [mantissa = '', exponent = '0'] = Math.abs(value).toExponential(DISPLAY_DIGITS - 1).split('e');
  const digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
  return (value < 0 ? '-' : '') + layOut(digits, Number(exponent));
}

/** Places the decimal point in significant `digits` whose first digit has decimal `exponent`. */
function layOut(digits: string, exponent: number): string {
  if (exponent >= 21 || exponent < -6) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${digits[0]}${fraction}e${exponent >= 0 ? '+' : '-'}${Math.abs(exponent)}`;
  }
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fractionPart = digits.slice(exponent + 1);
  return fractionPart === '' ? integerPart : `${integerPart}.${fractionPart}`;
}
