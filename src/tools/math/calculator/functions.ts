import { CalculationError } from './calculation-error.ts';
import { formatValue } from './format.ts';
import {
  absolute,
  add,
  approximate,
  bitLength,
  compare,
  divide,
  exact,
  exactSquareRoot,
  floor,
  isZero,
  multiply,
  negate,
  significantDigits,
  subtract,
  toExact,
  toNumber,
  type CalculatorValue,
} from './rational.ts';

/** A named function the calculator can call, with its argument count and a usage line. */
export interface CalculatorFunction {
  readonly usage: string;
  readonly minimumArguments: number;
  readonly maximumArguments: number;
  readonly apply: (values: readonly CalculatorValue[]) => CalculatorValue;
}

/** Exact powers are kept only while the result stays below this size (about 12,000 digits). */
const MAX_EXACT_POWER_BITS = 40_000;
/** round(x, digits) accepts digits in ±this range. */
const MAX_ROUNDING_DIGITS = 100;

const ZERO = exact(0n);
const HALF = exact(1n, 2n);

// Maps, not object literals: a lookup of "constructor" must not find Object.prototype's.
export const CONSTANTS: ReadonlyMap<string, CalculatorValue> = new Map([
  ['pi', approximate(Math.PI)],
  ['π', approximate(Math.PI)],
  ['e', approximate(Math.E)],
]);

export const FUNCTIONS: ReadonlyMap<string, CalculatorFunction> = new Map(Object.entries({
  sqrt: unary('sqrt(x)', squareRoot),
  cbrt: unary('cbrt(x)', (x) => approximate(Math.cbrt(toNumber(x)))),
  abs: unary('abs(x)', (x) => (compare(x, ZERO) < 0 ? negate(x) : x)),
  round: {
    usage: 'round(x) or round(x, digits)',
    minimumArguments: 1,
    maximumArguments: 2,
    apply: ([x = ZERO, digits = ZERO]) => roundToDigits(x, digits),
  } satisfies CalculatorFunction,
  floor: unary('floor(x)', floor),
  ceil: unary('ceil(x)', (x) => negate(floor(negate(x)))),
  ln: unary('ln(x)', logarithm('ln', Math.log, Math.LN10)),
  log: unary('log(x)', logarithm('log', Math.log10, 1)),
  log2: unary('log2(x)', logarithm('log2', Math.log2, Math.log2(10))),
  exp: unary('exp(x)', (x) => approximate(Math.exp(toNumber(x)))),
  sin: unary('sin(x)', trigonometric(Math.sin)),
  cos: unary('cos(x)', trigonometric(Math.cos)),
  tan: unary('tan(x)', trigonometric(Math.tan)),
  min: variadic('min(a, b, …)', (candidate, best) => compare(candidate, best) < 0),
  max: variadic('max(a, b, …)', (candidate, best) => compare(candidate, best) > 0),
  pow: {
    usage: 'pow(base, exponent)',
    minimumArguments: 2,
    maximumArguments: 2,
    apply: ([base = ZERO, exponent = ZERO]) => power(base, exponent),
  } satisfies CalculatorFunction,
}));

/**
 * base ^ exponent: exact for an exact base and whole exponent while the result stays a reasonable
 * size, a float otherwise. Throws CalculationError for 0 to a negative power and for results that
 * are not real (a negative base with a fractional exponent).
 */
export function power(base: CalculatorValue, exponent: CalculatorValue): CalculatorValue {
  if (isZero(base) && compare(exponent, ZERO) < 0) {
    throw new CalculationError('Division by zero (0 raised to a negative power)', 'check the expression.');
  }
  if (base.kind === 'exact' && exponent.kind === 'exact' && exponent.denominator === 1n) {
    const magnitude = absolute(exponent.numerator);
    // One less than the bit length is log2 rounded down, so 2^40000 fits and 3^k is not undercounted by much.
    const bitsPerFactor = Math.max(bitLength(base.numerator), bitLength(base.denominator), 2) - 1;
    const size = bitsPerFactor * Number(magnitude);
    if (size <= MAX_EXACT_POWER_BITS) {
      const numerator = base.numerator ** magnitude;
      const denominator = base.denominator ** magnitude;
      return exponent.numerator >= 0n ? exact(numerator, denominator) : exact(denominator, numerator);
    }
  }
  const result = Math.pow(toNumber(base), toNumber(exponent));
  if (Number.isNaN(result)) {
    throw new CalculationError(
      `${formatValue(base)} raised to the power ${formatValue(exponent)} has no real result`,
      'a negative number cannot be raised to a fractional power; use cbrt(x) for a cube root.',
    );
  }
  return approximate(result);
}

/** The remainder of left / right, with the sign of right (-7 mod 3 = 2). */
export function modulo(left: CalculatorValue, right: CalculatorValue): CalculatorValue {
  if (isZero(right)) {
    throw new CalculationError('Division by zero (mod 0)', 'check the expression.');
  }
  if (left.kind === 'exact' && right.kind === 'exact') {
    return subtract(left, multiply(right, floor(divide(left, right))));
  }
  const dividend = toNumber(left);
  const divisor = toNumber(right);
  return approximate(dividend - divisor * Math.floor(dividend / divisor));
}

function unary(usage: string, compute: (x: CalculatorValue) => CalculatorValue): CalculatorFunction {
  return { usage, minimumArguments: 1, maximumArguments: 1, apply: ([x = ZERO]) => compute(x) };
}

function variadic(
  usage: string,
  isBetter: (candidate: CalculatorValue, best: CalculatorValue) => boolean,
): CalculatorFunction {
  return {
    usage,
    minimumArguments: 1,
    maximumArguments: Number.POSITIVE_INFINITY,
    apply: (values) =>
      values.reduce((best, candidate) => (isBetter(candidate, best) ? candidate : best)),
  };
}

function squareRoot(x: CalculatorValue): CalculatorValue {
  if (compare(x, ZERO) < 0) {
    throw new CalculationError(
      `sqrt of a negative number (${formatValue(x)}) has no real result`,
      'the calculator works with real numbers only.',
    );
  }
  if (x.kind === 'exact') {
    const numerator = exactSquareRoot(x.numerator);
    const denominator = exactSquareRoot(x.denominator);
    if (numerator !== undefined && denominator !== undefined) return exact(numerator, denominator);
  }
  return approximate(Math.sqrt(toNumber(x)));
}

function logarithm(name: string, compute: (x: number) => number, perDecade: number) {
  return (x: CalculatorValue): CalculatorValue => {
    if (compare(x, ZERO) <= 0) {
      throw new CalculationError(
        `${name} is only defined for positive numbers, but got ${formatValue(x)}`,
        'check the expression.',
      );
    }
    const number = toNumber(x);
    if (x.kind === 'exact' && (number === 0 || !Number.isFinite(number))) {
      // Beyond float range (10^400): the logarithm is still ordinary, so read it off the digits.
      const { digits, exponent } = significantDigits(x.numerator, x.denominator, 17);
      const mantissa = Number(`${digits[0]}.${digits.slice(1) || '0'}`);
      return approximate((exponent + Math.log10(mantissa)) * perDecade);
    }
    return approximate(compute(number));
  };
}

function trigonometric(compute: (x: number) => number) {
  return (x: CalculatorValue): CalculatorValue => {
    const angle = toNumber(x);
    const result = compute(angle);
    // Float pi is not exactly pi, so sin(pi) comes out as 1.2e-16; that residue is noise, not a value.
    const isNoise = Math.abs(angle) >= 1 && Math.abs(result) < 1e-15 * Math.abs(angle);
    return approximate(isNoise ? 0 : result);
  };
}

function roundToDigits(x: CalculatorValue, digits: CalculatorValue): CalculatorValue {
  const places = toNumber(digits);
  if (!Number.isInteger(places) || Math.abs(places) > MAX_ROUNDING_DIGITS) {
    throw new CalculationError(
      `round's second argument must be a whole number of decimal places between -${MAX_ROUNDING_DIGITS} and ${MAX_ROUNDING_DIGITS}, not ${formatValue(digits)}`,
      'use round(x, 2) for two decimal places.',
    );
  }
  const scale = exact(10n ** BigInt(Math.abs(places)));
  const value = toExact(x);
  const scaled = places >= 0 ? multiply(value, scale) : divide(value, scale);
  // Half away from zero, as people round by hand: round(2.5) = 3, round(-2.5) = -3.
  const rounded =
    compare(scaled, ZERO) < 0 ? negate(floor(add(negate(scaled), HALF))) : floor(add(scaled, HALF));
  return places >= 0 ? divide(rounded, scale) : multiply(rounded, scale);
}
