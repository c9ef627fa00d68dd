/** An arithmetic expression found in a message, and where it was. */
export type ExpressionMention = { expression: string; index: number; length: number };

const FULL_WIDTH: Record<string, string> = {
  '（': '(', '）': ')', '＋': '+', '－': '-', '＊': '*', '／': '/', '％': '%', '＾': '^', '．': '.',
  '×': '*', '÷': '/', '−': '-',
};

const WORD_OPERATORS: ReadonlyArray<[RegExp, string]> = [
  [/\s*(?:to the power of|raised to)\s*/gi, '^'],
  [/\s*(?:multiplied by|times|乘以|乘)\s*/gi, '*'],
  [/\s*(?:divided by|除以)\s*/gi, '/'],
  [/\s*(?:plus|加上|加)\s*/gi, '+'],
  [/\s*(?:minus|减去|减)\s*/gi, '-'],
];

const FUNCTION_NAMES = 'sqrt|cbrt|abs|sin|cos|tan|log|ln|exp|round|floor|ceil|pi';
const EXPRESSION_RUN = new RegExp(`(?:${FUNCTION_NAMES}|[\\d\\s+\\-*/^%.()])+`, 'gi');
const HAS_OPERATION = new RegExp(`[\\d.)%]\\s*[+\\-*/^]\\s*[\\d.(]|(?:${FUNCTION_NAMES})\\s*\\(|[\\d)]\\s*[+\\-*/^]\\s*(?:${FUNCTION_NAMES})`, 'i');
const DATE_LIKE = /^\d{4}[-/]\d{1,2}[-/]\d{1,2}$|^\d{1,2}\/\d{1,2}\/\d{2,4}$/;

/**
 * The longest arithmetic expression in a message ("(2+3)*4 等于多少？" → "(2+3)*4"; "what is 12.5% of 80" →
 * "12.5% * 80"; "3 乘以 4" → "3*4"), with full-width symbols made ASCII. A lone number or a date is not an expression.
 */
export function findExpression(text: string): ExpressionMention | undefined {
  const normalized = normalize(text);
  let best: ExpressionMention | undefined;
  for (const match of normalized.text.matchAll(EXPRESSION_RUN)) {
    const candidate = tidy(match[0]);
    if (!candidate || !/\d/.test(candidate) || !HAS_OPERATION.test(candidate) || DATE_LIKE.test(candidate)) continue;
    if (!best || candidate.length > best.expression.length) {
      const start = (match.index ?? 0) + match[0].indexOf(candidate);
      best = { expression: candidate, index: normalized.originalIndex(start), length: candidate.length };
    }
  }
  return best;
}

/** Rewrites the text into calculator notation, keeping a way back to positions in the original text. */
function normalize(text: string): { text: string; originalIndex: (index: number) => number } {
  let result = [...text].map((character) => FULL_WIDTH[character] ?? toHalfWidthDigit(character)).join('');
  result = result.replace(/(\d+(?:\.\d+)?)\s*%\s*(?:of|的)\s*(\d+(?:\.\d+)?)/gi, '$1% * $2');
  result = result.replace(/(\d+(?:\.\d+)?)\s*的\s*(\d+(?:\.\d+)?)\s*%/g, '$2% * $1');
  result = result.replace(/(\d+(?:\.\d+)?)\s*的\s*(\d+)\s*次方/g, '$1^$2');
  for (const [pattern, operator] of WORD_OPERATORS) {
    result = result.replace(new RegExp(`(?<=[\\d)])${pattern.source}(?=[\\d(])`, pattern.flags), operator);
  }
  // Rewrites only shorten or keep the text, so a position maps back close enough to order the intents.
  const ratio = text.length / Math.max(result.length, 1);
  return { text: result, originalIndex: (index) => Math.floor(index * ratio) };
}

function toHalfWidthDigit(character: string): string {
  const code = character.charCodeAt(0);
  return code >= 0xff10 && code <= 0xff19 ? String.fromCharCode(code - 0xff10 + 48) : character;
}

/** Trims spaces, dangling operators and unmatched brackets from the ends of a run. */
function tidy(run: string): string {
  let candidate = run.trim();
  let previous = '';
  while (candidate !== previous) {
    previous = candidate;
    candidate = candidate.replace(/^[+*/^%.)\s]+/, '').replace(/[+\-*/^.(\s]+$/, '');
    if (countOf(candidate, '(') < countOf(candidate, ')') && candidate.endsWith(')')) candidate = candidate.slice(0, -1);
    if (countOf(candidate, '(') > countOf(candidate, ')') && candidate.startsWith('(')) candidate = candidate.slice(1);
  }
  return candidate;
}

function countOf(text: string, character: string): number {
  return text.split(character).length - 1;
}
