import { CalculationError } from './calculation-error.ts';

export type Operator = '+' | '-' | '*' | '/' | '^' | '%' | ',' | '(' | ')';

/**
 * One token. `position` is 1-based in the expression as given; `text` is the source spelling and a
 * number's `literal` its ASCII spelling.
 */
export type Token =
  | { readonly kind: 'number'; readonly literal: string; readonly text: string; readonly position: number }
  | { readonly kind: 'name'; readonly name: string; readonly text: string; readonly position: number }
  | { readonly kind: 'operator'; readonly operator: Operator; readonly text: string; readonly position: number }
  | { readonly kind: 'end'; readonly text: ''; readonly position: number };

/** Literal exponents beyond this would build enormous BigInts for no real calculation. */
const MAX_LITERAL_EXPONENT = 1000;

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[a-zA-Z_π][a-zA-Z0-9_]*/y;
const WHITESPACE = /\s+/y;

/** Characters models and users commonly paste, mapped one-to-one so positions stay true. */
const EQUIVALENTS: Readonly<Record<string, string>> = {
  '×': '*',
  '·': '*',
  '⋅': '*',
  '÷': '/',
  '−': '-',
  '–': '-',
};

const OPERATORS: ReadonlySet<string> = new Set(['+', '-', '*', '/', '^', '%', ',', '(', ')']);

/**
 * Splits an expression into tokens, ending with an `end` token. Full-width digits, operators and
 * parentheses (（２＋３）) and × ÷ − are accepted; "**" is read as "^". Throws CalculationError on a
 * character the calculator does not understand.
 */
export function tokenize(expression: string): Token[] {
  const source = normalize(expression);
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    WHITESPACE.lastIndex = index;
    if (WHITESPACE.test(source)) {
      index = WHITESPACE.lastIndex;
      continue;
    }
    const position = index + 1;
    const text = readSticky(NUMBER, source, index);
    if (text !== undefined) {
      checkExponent(text, position);
      const original = expression.slice(index, index + text.length);
      tokens.push({ kind: 'number', literal: text, text: original, position });
      index += text.length;
      continue;
    }
    const name = readSticky(NAME, source, index);
    if (name !== undefined) {
      const original = expression.slice(index, index + name.length);
      tokens.push({ kind: 'name', name: name.toLowerCase(), text: original, position });
      index += name.length;
      continue;
    }
    const character = source[index] ?? '';
    if (source.startsWith('**', index)) {
      tokens.push({ kind: 'operator', operator: '^', text: expression.slice(index, index + 2), position });
      index += 2;
      continue;
    }
    if (OPERATORS.has(character)) {
      tokens.push({ kind: 'operator', operator: character as Operator, text: expression[index] ?? '', position });
      index += 1;
      continue;
    }
    throw unexpectedCharacter(expression, index);
  }
  tokens.push({ kind: 'end', text: '', position: source.length + 1 });
  return tokens;
}

function normalize(expression: string): string {
  let result = '';
  for (const character of expression) {
    const code = character.codePointAt(0) ?? 0;
    if (code >= 0xff01 && code <= 0xff5e) {
      // The full-width forms block mirrors printable ASCII at a fixed offset.
      result += String.fromCodePoint(code - 0xfee0);
    } else if (code === 0x3000) {
      result += ' ';
    } else {
      // Astral characters (emoji) take two code units; keep them two units long.
      result += EQUIVALENTS[character] ?? character;
    }
  }
  return result;
}

function readSticky(pattern: RegExp, source: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(source)?.[0];
}

function checkExponent(literal: string, position: number): void {
  const exponent = /e([+-]?\d+)$/i.exec(literal)?.[1];
  if (exponent !== undefined && Math.abs(Number(exponent)) > MAX_LITERAL_EXPONENT) {
    throw new CalculationError(
      `Number "${literal}" at position ${position} is out of range`,
      `literal exponents are limited to ±${MAX_LITERAL_EXPONENT}.`,
    );
  }
}

function unexpectedCharacter(expression: string, index: number): CalculationError {
  const character = String.fromCodePoint(expression.codePointAt(index) ?? 0);
  const advice =
    character === '='
      ? 'pass only the expression to evaluate, without "=" or an equation to solve.'
      : 'use numbers, + - * / ^ (or **), % for percent, "mod", parentheses, and the listed functions and constants.';
  return new CalculationError(`Unexpected character "${character}" at position ${index + 1}`, advice);
}
