/**
 * The calculator's number: an exact fraction of two BigInts while only exact operations have been
 * applied (so 0.1 + 0.2 is exactly 3/10), or a float once a function such as sqrt or sin has made
 * the value irrational.
 */
export type CalculatorValue =
  | { readonly kind: 'exact'; readonly numerator: bigint; readonly denominator: bigint }
  | { readonly kind: 'approximate'; readonly value: number };

/** Builds a reduced fraction with a positive denominator. The denominator must not be zero. */
export function exact(numerator: bigint, denominator: bigint = 1n): CalculatorValue {
  const sign = denominator < 0n ? -1n : 1n;
  const divisor = greatestCommonDivisor(absolute(numerator), absolute(denominator));
  return {
    kind: 'exact',
    numerator: (sign * numerator) / divisor,
    denominator: (sign * denominator) / divisor,
  };
}

export function approximate(value: number): CalculatorValue {
  return { kind: 'approximate', value };
}

/** Parses an unsigned decimal literal such as "12", "0.5", ".5" or "2.5e-3" into an exact value. */
export function parseDecimal(text: string): CalculatorValue {
  const match = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (match === null) throw new RangeError(`Not a decimal literal: ${text}`);
  const integerDigits = match[1] ?? '';
  const fractionDigits = match[2] ?? '';
  const exponent = Number(match[3] ?? '0') - fractionDigits.length;
  const digits = BigInt(`${integerDigits}${fractionDigits}` || '0');
  return exponent >= 0
    ? exact(digits * 10n ** BigInt(exponent))
    : exact(digits, 10n ** BigInt(-exponent));
}

export function toNumber(value: CalculatorValue): number {
  if (value.kind === 'approximate') return value.value;
  const { numerator, denominator } = value;
  if (numerator === 0n) return 0;
  if (absolute(numerator) <= MAX_SAFE && denominator <= MAX_SAFE) {
    return Number(numerator) / Number(denominator);
  }
  // Number(huge BigInt) overflows to Infinity on both sides of the division; going through 17
  // significant decimal digits keeps full double precision at any magnitude.
  const { digits, exponent } = significantDigits(absolute(numerator), denominator, 17);
  const magnitude = Number(`${digits[0]}.${digits.slice(1) || '0'}e${exponent}`);
  return numerator < 0n ? -magnitude : magnitude;
}

/**
 * Snaps a float to its 15 most significant decimal digits and returns that as an exact value, so
 * that floor, ceil and round see 3 rather than 2.9999999999999996 after float noise.
 */
export function toExact(value: CalculatorValue): CalculatorValue {
  if (value.kind === 'exact') return value;
  const text = value.value.toPrecision(15);
  const negative = text.startsWith('-');
  const magnitude = parseDecimal(negative ? text.slice(1) : text);
  return negative ? negate(magnitude) : magnitude;
}

/**
 * Rounds the positive fraction numerator/denominator to `count` significant decimal digits, half
 * away from zero. Returns the digits without trailing zeros, the decimal exponent of the first
 * digit, and whether no rounding was needed.
 */
export function significantDigits(
  numerator: bigint,
  denominator: bigint,
  count: number,
): { digits: string; exponent: number; isExact: boolean } {
  let exponent = numerator.toString().length - denominator.toString().length;
  const atLeastPowerOfTen =
    exponent >= 0
      ? numerator >= denominator * 10n ** BigInt(exponent)
      : numerator * 10n ** BigInt(-exponent) >= denominator;
  if (!atLeastPowerOfTen) exponent -= 1;
  const shift = count - 1 - exponent;
  const scaledNumerator = shift >= 0 ? numerator * 10n ** BigInt(shift) : numerator;
  const scaledDenominator = shift >= 0 ? denominator : denominator * 10n ** BigInt(-shift);
  const remainder = scaledNumerator % scaledDenominator;
  let quotient = scaledNumerator / scaledDenominator;
  if (2n * remainder >= scaledDenominator) quotient += 1n;
  let digits = quotient.toString();
  if (digits.length > count) {
    // Rounding carried into a new leading digit (9.99… became 10.0…).
    digits = digits.slice(0, count);
    exponent += 1;
  }
  return { digits: digits.replace(/0+$/, '') || '0', exponent, isExact: remainder === 0n };
}

export function add(left: CalculatorValue, right: CalculatorValue): CalculatorValue {
  if (left.kind === 'exact' && right.kind === 'exact') {
    return exact(
      left.numerator * right.denominator + right.numerator * left.denominator,
      left.denominator * right.denominator,
    );
  }
  return approximate(toNumber(left) + toNumber(right));
}

export function subtract(left: CalculatorValue, right: CalculatorValue): CalculatorValue {
  return add(left, negate(right));
}

export function multiply(left: CalculatorValue, right: CalculatorValue): CalculatorValue {
  if (left.kind === 'exact' && right.kind === 'exact') {
    return exact(left.numerator * right.numerator, left.denominator * right.denominator);
  }
  return approximate(toNumber(left) * toNumber(right));
}

/** Divides; the caller must have rejected a zero divisor. */
export function divide(left: CalculatorValue, right: CalculatorValue): CalculatorValue {
  if (left.kind === 'exact' && right.kind === 'exact') {
    return exact(left.numerator * right.denominator, left.denominator * right.numerator);
  }
  return approximate(toNumber(left) / toNumber(right));
}

export function negate(value: CalculatorValue): CalculatorValue {
  return value.kind === 'exact'
    ? { kind: 'exact', numerator: -value.numerator, denominator: value.denominator }
    : approximate(-value.value);
}

export function isZero(value: CalculatorValue): boolean {
  return value.kind === 'exact' ? value.numerator === 0n : value.value === 0;
}

/** Negative, zero or positive as left is below, equal to or above right. */
export function compare(left: CalculatorValue, right: CalculatorValue): number {
  if (left.kind === 'exact' && right.kind === 'exact') {
    const difference = left.numerator * right.denominator - right.numerator * left.denominator;
    return difference === 0n ? 0 : difference < 0n ? -1 : 1;
  }
  return Math.sign(toNumber(left) - toNumber(right));
}

/** The largest integer not above the value, as an exact value. */
export function floor(value: CalculatorValue): CalculatorValue {
  const { numerator, denominator } = exactParts(toExact(value));
  const quotient = numerator / denominator;
  // BigInt division truncates toward zero; negative non-integers need one step further down.
  return exact(numerator % denominator !== 0n && numerator < 0n ? quotient - 1n : quotient);
}

/** The square root of a non-negative BigInt if it is a perfect square, else undefined. */
export function exactSquareRoot(value: bigint): bigint | undefined {
  if (value < 2n) return value;
  // Newton's method from a starting point above the root descends to floor(sqrt(value)).
  let root = 1n << BigInt(Math.ceil(bitLength(value) / 2));
  for (;;) {
    const next = (root + value / root) / 2n;
    if (next >= root) break;
    root = next;
  }
  return root * root === value ? root : undefined;
}

export function bitLength(value: bigint): number {
  return absolute(value).toString(2).length;
}

export function absolute(value: bigint): bigint {
  return value < 0n ? -value : value;
}

function exactParts(value: CalculatorValue): { numerator: bigint; denominator: bigint } {
  if (value.kind !== 'exact') throw new TypeError('Expected an exact value');
  return value;
}

function greatestCommonDivisor(left: bigint, right: bigint): bigint {
  while (right !== 0n) [left, right] = [right, left % right];
  return left === 0n ? 1n : left;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
