import { CalculationError } from './calculation-error.ts';
import { CONSTANTS, FUNCTIONS, modulo, power } from './functions.ts';
import {
  add,
  divide,
  isZero,
  multiply,
  negate,
  parseDecimal,
  subtract,
  type CalculatorValue,
} from './rational.ts';
import type { Operator, Token } from './tokenize.ts';

/** Parentheses, function calls, signs and powers may nest this deep. */
const MAX_NESTING = 100;

const PERCENT = parseDecimal('100');
const FUNCTION_LIST = [...FUNCTIONS.keys()].join(', ');
const CONSTANT_LIST = 'pi, e';

/**
 * Evaluates tokens by recursive descent, computing as it parses. Precedence, loosest first:
 * + -, then * / mod, then unary + -, then ^ (right-associative, so -2^2 = -4 and 2^-1 = 0.5),
 * then postfix % (x/100). Throws CalculationError for any syntax or math problem.
 */
export function evaluateTokens(tokens: readonly Token[]): CalculatorValue {
  return new Parser(tokens).parseAll();
}

class Parser {
  private readonly tokens: readonly Token[];
  private index = 0;
  private depth = 0;

  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }

  parseAll(): CalculatorValue {
    const value = this.parseSum();
    if (this.peek().kind !== 'end') throw this.unexpected(this.peek());
    return value;
  }

  private parseSum(): CalculatorValue {
    let value = this.parseProduct();
    for (;;) {
      if (this.acceptOperator('+')) value = finite(add(value, this.parseProduct()));
      else if (this.acceptOperator('-')) value = finite(subtract(value, this.parseProduct()));
      else return value;
    }
  }

  private parseProduct(): CalculatorValue {
    let value = this.parseSigned();
    for (;;) {
      const token = this.peek();
      if (this.acceptOperator('*')) {
        value = finite(multiply(value, this.parseSigned()));
      } else if (this.acceptOperator('/')) {
        const divisor = this.parseSigned();
        if (isZero(divisor)) throw new CalculationError('Division by zero', 'check the expression.');
        value = finite(divide(value, divisor));
      } else if (token.kind === 'name' && token.name === 'mod') {
        this.index += 1;
        value = finite(modulo(value, this.parseSigned()));
      } else {
        return value;
      }
    }
  }

  private parseSigned(): CalculatorValue {
    if (this.acceptOperator('+')) return this.nested(() => this.parseSigned());
    if (this.acceptOperator('-')) return negate(this.nested(() => this.parseSigned()));
    return this.parsePower();
  }

  private parsePower(): CalculatorValue {
    const base = this.parsePercent();
    if (!this.acceptOperator('^')) return base;
    // The exponent may carry its own sign (2^-1) and chain to the right (2^3^2 = 2^9).
    return finite(power(base, this.nested(() => this.parseSigned())));
  }

  private parsePercent(): CalculatorValue {
    let value = this.parsePrimary();
    while (this.acceptOperator('%')) value = divide(value, PERCENT);
    return value;
  }

  private parsePrimary(): CalculatorValue {
    const token = this.peek();
    if (token.kind === 'number') {
      this.index += 1;
      return parseDecimal(token.literal);
    }
    if (token.kind === 'operator' && token.operator === '(') {
      this.index += 1;
      const value = this.nested(() => this.parseSum());
      this.expectClosing(token);
      return value;
    }
    if (token.kind === 'name') {
      this.index += 1;
      const next = this.peek();
      if (next.kind === 'operator' && next.operator === '(') return this.parseCall(token);
      const constant = CONSTANTS.get(token.name);
      if (constant !== undefined) return constant;
      throw unknownName(token);
    }
    throw this.unexpected(token);
  }

  private parseCall(nameToken: Token & { kind: 'name' }): CalculatorValue {
    const definition = FUNCTIONS.get(nameToken.name);
    if (definition === undefined) {
      throw new CalculationError(
        `Unknown function "${nameToken.text}" at position ${nameToken.position}`,
        `known functions: ${FUNCTION_LIST}.`,
      );
    }
    const opening = this.peek();
    this.index += 1;
    const values = this.nested(() => {
      const parsed: CalculatorValue[] = [];
      if (this.isOperator(this.peek(), ')')) return parsed;
      do parsed.push(this.parseSum());
      while (this.acceptOperator(','));
      return parsed;
    });
    this.expectClosing(opening);
    if (values.length < definition.minimumArguments || values.length > definition.maximumArguments) {
      throw new CalculationError(
        `${nameToken.name} was given ${values.length} argument${values.length === 1 ? '' : 's'} at position ${nameToken.position}`,
        `call it as ${definition.usage}.`,
      );
    }
    return finite(definition.apply(values));
  }

  private nested<T>(parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_NESTING) {
      throw new CalculationError(
        `The expression nests deeper than ${MAX_NESTING} levels`,
        'simplify it or split the calculation into smaller steps.',
      );
    }
    const result = parse();
    this.depth -= 1;
    return result;
  }

  private expectClosing(opening: Token): void {
    if (this.acceptOperator(')')) return;
    const token = this.peek();
    if (token.kind === 'end') {
      throw new CalculationError(
        `Missing ")" for the "(" at position ${opening.position}`,
        'close every parenthesis.',
      );
    }
    throw this.unexpected(token);
  }

  private unexpected(token: Token): CalculationError {
    if (token.kind === 'end') {
      return new CalculationError('The expression ends too early', 'an operand is missing after the last operator.');
    }
    const problem = `Unexpected "${token.text}" at position ${token.position}`;
    const previous = this.tokens[this.index - 1];
    if (this.isOperator(token, ')')) {
      return new CalculationError(problem, 'it has no matching "(".');
    }
    if (this.isOperator(token, ',')) {
      return new CalculationError(
        problem,
        'commas only separate function arguments; write numbers without thousands separators (1000000, not 1,000,000).',
      );
    }
    const startsOperand =
      token.kind === 'number' || token.kind === 'name' || this.isOperator(token, '(');
    if (startsOperand && previous !== undefined && this.isOperator(previous, '%')) {
      return new CalculationError(problem, '"%" means percent (x/100); for the remainder of a division write "a mod b".');
    }
    if (startsOperand) {
      return new CalculationError(problem, 'write "*" for multiplication explicitly, e.g. 2*pi or 2*(3+4).');
    }
    return new CalculationError(problem, 'a number, a parenthesis, a function or a constant was expected here.');
  }

  private peek(): Token {
    // The tokenizer always ends the list with an `end` token, and parsing never steps past it.
    return this.tokens[Math.min(this.index, this.tokens.length - 1)] as Token;
  }

  private acceptOperator(operator: Operator): boolean {
    if (!this.isOperator(this.peek(), operator)) return false;
    this.index += 1;
    return true;
  }

  private isOperator(token: Token, operator: Operator): boolean {
    return token.kind === 'operator' && token.operator === operator;
  }
}

function finite(value: CalculatorValue): CalculatorValue {
  if (value.kind === 'exact' || Number.isFinite(value.value)) return value;
  if (Number.isNaN(value.value)) {
    throw new CalculationError('The result is not a real number', 'check the expression.');
  }
  throw new CalculationError(
    'The result is too large to represent',
    'check the expression, or split it into smaller numbers.',
  );
}

function unknownName(token: Token & { kind: 'name' }): CalculationError {
  const definition = FUNCTIONS.get(token.name);
  if (definition !== undefined) {
    return new CalculationError(
      `Function "${token.text}" at position ${token.position} has no parentheses`,
      `call it as ${definition.usage}.`,
    );
  }
  if (token.name === 'mod') {
    return new CalculationError(`"mod" at position ${token.position} has no left operand`, 'write it as a mod b.');
  }
  return new CalculationError(
    `Unknown name "${token.text}" at position ${token.position}`,
    `the calculator has no variables; known constants: ${CONSTANT_LIST}; known functions: ${FUNCTION_LIST}.`,
  );
}
