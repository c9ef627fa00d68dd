/**
 * Glob matching for workspace paths, written here rather than taken from `path.matchesGlob`:
 * Node's matcher compiles to a backtracking regular expression (three `*` against a 255-character
 * name take seconds, and nothing can interrupt a regular expression), expands `{1..100000}` before
 * matching, and hides dotfiles. This one expands braces only within a bound and compares each
 * segment in O(name × pattern) steps, so one match is always cheap.
 */

/** Limits that keep one pattern cheap to expand and match. */
const MAX_GLOB_LENGTH = 1_000;
import { digits } from './text/count-text.ts';
const MAX_BRACE_EXPANSIONS = 256;

/**
 * Why a pattern would be too costly to use (`{1..100000}` expands to 100,000 patterns), or
 * undefined when it is fine. The message is written for the model. Never throws.
 */
export function globComplexityProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_GLOB_LENGTH) return `the pattern is ${pattern.length} characters long; use at most ${MAX_GLOB_LENGTH}`;
  const expansions = parseSequence(pattern, 0, false).count;
  if (expansions > MAX_BRACE_EXPANSIONS) {
    const shown = expansions >= Number.MAX_SAFE_INTEGER ? 'too many' : digits(expansions);
    return `the pattern's {…} braces expand to ${shown} patterns; use at most ${MAX_BRACE_EXPANSIONS} (for example a simpler wildcard)`;
  }
  return undefined;
}

const compiled = new Map<string, string[][]>();

/**
 * Whether a `/`-separated relative path matches a glob pattern: `*` (any characters but `/`), `**`
 * (any number of folders), `?`, `[abc]`, `[a-z]`, `[!a]`, `{a,b}`, `{1..9}`, `\` escapes. Names
 * starting with a dot match like any other name. Case-sensitive. A pattern too costly to expand
 * (see `globComplexityProblem`) matches nothing. Never throws.
 */
export function matchesGlob(relativePath: string, pattern: string): boolean {
  let alternatives = compiled.get(pattern);
  if (alternatives === undefined) {
    alternatives = globComplexityProblem(pattern) === undefined ? expandBraces(pattern).map((one) => one.split('/')) : [];
    if (compiled.size > 1_000) compiled.clear();
    compiled.set(pattern, alternatives);
  }
  const segments = relativePath.split('/');
  return alternatives.some((patternSegments) => matchSegments(segments, patternSegments));
}

/** Path segments against pattern segments, `**` matching zero or more segments: a table, not backtracking. */
function matchSegments(segments: string[], patterns: string[]): boolean {
  // states[j]: the segments read so far can be matched by the first j pattern segments.
  // As in Node's matcher, a trailing `/**` needs at least one segment: `src/**` is what is inside src.
  const last = patterns.length - 1;
  const closeOverGlobstars = (states: boolean[]) => {
    for (let j = 0; j < patterns.length; j++) if (states[j] && patterns[j] === '**' && (j < last || j === 0)) states[j + 1] = true;
    return states;
  };
  let states = closeOverGlobstars([true, ...new Array<boolean>(patterns.length).fill(false)]);
  for (const segment of segments) {
    const next = new Array<boolean>(patterns.length + 1).fill(false);
    for (let j = 0; j < patterns.length; j++) {
      if (!states[j]) continue;
      const pattern = patterns[j] as string;
      if (pattern === '**') next[j] = next[j + 1] = true;
      else if (matchSegment(segment, pattern)) next[j + 1] = true;
    }
    states = closeOverGlobstars(next);
  }
  return states[patterns.length] === true;
}

/** One name against one segment pattern: the classic two-pointer wildcard match, O(name × pattern). */
function matchSegment(name: string, pattern: string): boolean {
  const tokens = tokenize(pattern);
  let n = 0;
  let t = 0;
  let starToken = -1;
  let starName = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind !== 'star' && matchesCharacter(token, name[n] as string)) {
      n++;
      t++;
    } else if (token?.kind === 'star') {
      starToken = t++;
      starName = n;
    } else if (starToken >= 0) {
      t = starToken + 1;
      n = ++starName;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

type Token = { kind: 'star' } | { kind: 'any' } | { kind: 'literal'; character: string } | { kind: 'class'; negated: boolean; test: (character: string) => boolean };

function matchesCharacter(token: Token, character: string): boolean {
  switch (token.kind) {
    case 'any':
      return true;
    case 'literal':
      return token.character === character;
    case 'class':
      return token.test(character) !== token.negated;
    default:
      return false;
  }
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] as string;
    if (character === '\\' && index + 1 < pattern.length) {
      tokens.push({ kind: 'literal', character: pattern[++index] as string });
    } else if (character === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (character === '?') {
      tokens.push({ kind: 'any' });
    } else if (character === '[') {
      const parsed = parseClass(pattern, index);
      if (parsed === undefined) tokens.push({ kind: 'literal', character });
      else {
        tokens.push(parsed.token);
        index = parsed.end;
      }
    } else {
      tokens.push({ kind: 'literal', character });
    }
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!x]` / `[^x]`; undefined when the bracket is not closed (then it is literal). */
function parseClass(pattern: string, open: number): { token: Token; end: number } | undefined {
  let index = open + 1;
  const negated = pattern[index] === '!' || pattern[index] === '^';
  if (negated) index++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (index < pattern.length && (pattern[index] !== ']' || first)) {
    first = false;
    let low = pattern[index] as string;
    if (low === '\\' && index + 1 < pattern.length) low = pattern[++index] as string;
    if (pattern[index + 1] === '-' && index + 2 < pattern.length && pattern[index + 2] !== ']') {
      ranges.push([low, pattern[index + 2] as string]);
      index += 3;
    } else {
      ranges.push([low, low]);
      index++;
    }
  }
  if (index >= pattern.length) return undefined;
  const test = (character: string) => ranges.some(([low, high]) => character >= low && character <= high);
  return { token: { kind: 'class', negated, test }, end: index };
}

/** Brace expansion (`a{b,c}` → ab, ac; `{1..3}` → 1, 2, 3); the caller has bounded the count. */
function expandBraces(pattern: string): string[] {
  return expandSequence(pattern, 0, false).results;
}

function expandSequence(pattern: string, start: number, inGroup: boolean): { results: string[]; end: number } {
  let results = [''];
  let index = start;
  let literal = '';
  const flush = () => {
    if (literal !== '') results = results.map((result) => result + literal);
    literal = '';
  };
  while (index < pattern.length) {
    const character = pattern[index] as string;
    if (character === '\\') {
      literal += pattern.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (inGroup && (character === ',' || character === '}')) break;
    if (character === '{') {
      const group = expandGroup(pattern, index);
      if (group !== undefined) {
        flush();
        results = results.flatMap((result) => group.results.map((alternative) => result + alternative));
        index = group.end;
        continue;
      }
    }
    literal += character;
    index++;
  }
  flush();
  return { results, end: index };
}

function expandGroup(pattern: string, open: number): { results: string[]; end: number } | undefined {
  const alternatives: string[] = [];
  let index = open + 1;
  let count = 0;
  while (index < pattern.length) {
    const alternative = expandSequence(pattern, index, true);
    alternatives.push(...alternative.results);
    count++;
    index = alternative.end;
    if (pattern[index] === '}') {
      if (count > 1) return { results: alternatives, end: index + 1 };
      const range = expandRange(pattern.slice(open + 1, index));
      return range === undefined ? undefined : { results: range, end: index + 1 };
    }
    index++;
  }
  return undefined;
}

const RANGE = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$|^([a-zA-Z])\.\.([a-zA-Z])$/;

function expandRange(body: string): string[] | undefined {
  const range = RANGE.exec(body);
  if (!range) return undefined;
  if (range[4] !== undefined && range[5] !== undefined) {
    const from = range[4].charCodeAt(0);
    const to = range[5].charCodeAt(0);
    const step = from <= to ? 1 : -1;
    const letters: string[] = [];
    for (let code = from; step > 0 ? code <= to : code >= to; code += step) letters.push(String.fromCharCode(code));
    return letters;
  }
  const from = Number(range[1]);
  const to = Number(range[2]);
  const step = (from <= to ? 1 : -1) * Math.max(1, Math.abs(Number(range[3] ?? 1)));
  const width = /^-?0\d/.test(range[1] as string) || /^-?0\d/.test(range[2] as string) ? Math.max((range[1] as string).length, (range[2] as string).length) : 0;
  const numbers: string[] = [];
  for (let value = from; step > 0 ? value <= to : value >= to; value += step) numbers.push(String(value).padStart(width, '0'));
  return numbers;
}

/** How many patterns brace expansion makes (counted without expanding, so `{1..1e9}` costs nothing). */
function parseSequence(pattern: string, start: number, inGroup: boolean): { count: number; end: number } {
  let count = 1;
  let index = start;
  while (index < pattern.length) {
    const character = pattern[index];
    if (character === '\\') {
      index += 2;
      continue;
    }
    if (inGroup && (character === ',' || character === '}')) break;
    if (character === '{') {
      const group = countGroup(pattern, index);
      count = Math.min(count * group.count, Number.MAX_SAFE_INTEGER);
      index = group.end;
      continue;
    }
    index++;
  }
  return { count, end: index };
}

function countGroup(pattern: string, open: number): { count: number; end: number } {
  let index = open + 1;
  let sum = 0;
  let alternatives = 0;
  while (index < pattern.length) {
    const alternative = parseSequence(pattern, index, true);
    sum += alternative.count;
    alternatives++;
    index = alternative.end;
    if (pattern[index] === '}') {
      if (alternatives > 1) return { count: Math.min(sum, Number.MAX_SAFE_INTEGER), end: index + 1 };
      return { count: rangeLength(pattern.slice(open + 1, index)), end: index + 1 };
    }
    index++;
  }
  return { count: 1, end: open + 1 };
}

function rangeLength(body: string): number {
  const range = RANGE.exec(body);
  if (!range) return 1;
  if (range[4] !== undefined && range[5] !== undefined) return Math.abs(range[4].charCodeAt(0) - range[5].charCodeAt(0)) + 1;
  const span = Math.abs(Number(range[2]) - Number(range[1])) + 1;
  return Math.ceil(span / Math.max(1, Math.abs(Number(range[3] ?? 1))));
}
