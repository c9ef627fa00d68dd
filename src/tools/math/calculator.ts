import { tool } from 'ai';
import { z } from 'zod';
import { CalculationError } from './calculator/calculation-error.ts';
import { formatValue } from './calculator/format.ts';
import { evaluateTokens } from './calculator/parse.ts';
import { tokenize } from './calculator/tokenize.ts';

/** Longer expressions are almost certainly a mistake or an attempt to do too much in one call. */
const MAX_EXPRESSION_LENGTH = 500;

const DESCRIPTION = `Evaluate an arithmetic expression exactly and return the result.
Use this for ANY arithmetic (sums, differences, products, percentages, averages, unit conversions by a factor, compound interest), even when it looks easy: do not compute numbers in your head. One expression per call, at most ${MAX_EXPRESSION_LENGTH} characters; there are no variables, units or equations.
Syntax:
- numbers: 42, 3.14, .5, 1e6, 2.5e-3 (no thousands separators)
- + - * / (× and ÷ also work), parentheses, unary minus
- powers: 2^10 or 2**10 (right-associative; -2^2 = -4)
- percent: x% means x/100, so 200 * 15% = 30 (to add 15%, write 200 * 1.15)
- remainder: 17 mod 5 = 2 (the result takes the sign of the divisor)
- functions: sqrt, cbrt, abs, round(x) or round(x, digits), floor, ceil, ln, log (base 10), log2, exp, sin, cos, tan (radians: for degrees write sin(30*pi/180)), min(a, b, …), max(a, b, …), pow(base, exponent)
- constants: pi, e
Results of + - * /, percent, mod and whole-number powers are exact (0.1 + 0.2 = 0.3, 2^100 in full); roots, logarithms, exp and trigonometry are rounded to 12 significant digits.`;

/**
 * Evaluates an arithmetic expression and returns the formatted result (e.g. "20" for "(2+3)*4").
 * Never uses eval. Throws an Error whose message, written for the model, says what is wrong and
 * how to fix it: empty or over-long input, unexpected characters or tokens (with their 1-based
 * position), unknown names or functions, division by zero, results that are not finite real numbers.
 */
export function evaluateExpression(expression: string): string {
  const trimmed = expression.trim();
  if (trimmed === '') {
    throw new Error('The expression is empty; pass an arithmetic expression such as "(2+3)*4".');
  }
  if (trimmed.length > MAX_EXPRESSION_LENGTH) {
    throw new Error(
      `The expression is ${trimmed.length} characters long, over the limit of ${MAX_EXPRESSION_LENGTH}; split the calculation into smaller steps.`,
    );
  }
  try {
    return formatValue(evaluateTokens(tokenize(trimmed)));
  } catch (error) {
    if (error instanceof CalculationError) {
      throw new Error(`${error.problem} in "${trimmed}"; ${error.advice}`);
    }
    throw error;
  }
}

/**
 * The `calculate` tool: evaluates { expression } and returns "<expression> = <result>".
 * Failures throw model-readable Errors (see evaluateExpression).
 */
export function createCalculatorTool() {
  return tool({
    description: DESCRIPTION,
    inputSchema: z.object({
      expression: z
        .string()
        .describe('The arithmetic expression to evaluate, e.g. "(2+3)*4", "1299 * 85%" or "sqrt(2) / 2".'),
    }),
    execute: async ({ expression }) => `${expression.trim()} = ${evaluateExpression(expression)}`,
  });
}
