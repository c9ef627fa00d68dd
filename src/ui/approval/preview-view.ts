import type { ChalkInstance } from 'chalk';
import type { CallDescription } from '../../tools/tool-spec.ts';

const GUTTER = '  │ ';
/** Below this share of a changed line kept, the pair is two different lines, not an edited one: no word highlights. */
const MIN_SHARED = 0.4;

type WordDiff = typeof import('diff').diffWordsWithSpace;

/**
 * The preview under an approval question, each line after "  │ ". A unified diff (`previewFormat:
 * 'diff'`) gets the old and new line numbers, removed lines red and added lines green, and where a
 * removed line and an added one are an edit of each other, the words that changed highlighted; with
 * colour off (NO_COLOR, a pipe) only the `+`/`-` markers and the numbers remain. Anything else is
 * dimmed. The preview arrives sanitised; only styling is added here. Loads the `diff` library for
 * the word highlights on first use.
 */
export async function formatPreview(description: CallDescription, colour: ChalkInstance): Promise<string> {
  const lines = description.preview.split('\n');
  if (description.previewFormat !== 'diff') return lines.map((line) => colour.dim(`${GUTTER}${line}`)).join('\n');
  const words = colour.level > 0 ? (await import('diff')).diffWordsWithSpace : undefined;
  return formatDiff(lines, colour, words).join('\n');
}

interface Numbered {
  marker: ' ' | '-' | '+';
  text: string;
  old?: number;
  new?: number;
}

function formatDiff(lines: readonly string[], colour: ChalkInstance, words: WordDiff | undefined): string[] {
  const width = String(largestLineNumber(lines)).length;
  const number = (value: number | undefined) => (value === undefined ? ' '.repeat(width) : String(value).padStart(width));
  const out: string[] = [];
  let oldLine = 0;
  let newLine = 0;
  let run: Numbered[] = [];
  let inHunk = false;

  const flush = () => {
    const removed = run.filter((line) => line.marker === '-');
    const added = run.filter((line) => line.marker === '+');
    const highlights = new Map<Numbered, string>();
    if (words) {
      for (let index = 0; index < Math.min(removed.length, added.length); index++) {
        const pair = wordHighlights(removed[index]!.text, added[index]!.text, colour, words);
        if (pair) {
          highlights.set(removed[index]!, pair.removed);
          highlights.set(added[index]!, pair.added);
        }
      }
    }
    for (const line of run) {
      const head = `${GUTTER}${number(line.old)} ${number(line.new)} ${line.marker} `;
      const paint = line.marker === '-' ? colour.red : colour.green;
      const highlighted = highlights.get(line);
      out.push(highlighted === undefined ? paint(`${head}${line.text}`) : `${paint(head)}${highlighted}`);
    }
    run = [];
  };

  for (const line of lines) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    // Only before the first hunk: inside one, "--- x" is a removed line that read "-- x".
    if (!inHunk && (line.startsWith('--- ') || line.startsWith('+++ '))) {
      flush();
      out.push(colour.bold(`${GUTTER}${line}`));
    } else if (hunk) {
      flush();
      inHunk = true;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      out.push(colour.cyan(`${GUTTER}${line}`));
    } else if (line.startsWith('-')) {
      // A change is removed lines then added ones: a removed line after added ones starts a new change.
      if (run.some((entry) => entry.marker === '+')) flush();
      run.push({ marker: '-', text: line.slice(1), old: oldLine++ });
    } else if (line.startsWith('+')) {
      run.push({ marker: '+', text: line.slice(1), new: newLine++ });
    } else if (line.startsWith(' ')) {
      flush();
      out.push(colour.dim(`${GUTTER}${number(oldLine++)} ${number(newLine++)}   ${line.slice(1)}`));
    } else {
      flush();
      out.push(colour.dim(`${GUTTER}${line}`));
    }
  }
  flush();
  return out;
}

/** The old and new line with the changed words marked (inverse), or undefined when they have too little in common. */
function wordHighlights(
  before: string,
  after: string,
  colour: ChalkInstance,
  words: WordDiff,
): { removed: string; added: string } | undefined {
  const parts = words(before, after);
  const shared = parts.filter((part) => !part.added && !part.removed).reduce((sum, part) => sum + part.value.length, 0);
  if (shared < MIN_SHARED * Math.max(before.length, after.length)) return undefined;
  let removed = '';
  let added = '';
  for (const part of parts) {
    if (part.removed) removed += colour.inverse.red(part.value);
    else if (part.added) added += colour.inverse.green(part.value);
    else {
      removed += colour.red(part.value);
      added += colour.green(part.value);
    }
  }
  return { removed, added };
}

/** The highest line number any hunk reaches, for the width of the number columns. */
function largestLineNumber(lines: readonly string[]): number {
  let largest = 1;
  for (const line of lines) {
    const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk) continue;
    largest = Math.max(largest, Number(hunk[1]) + Number(hunk[2] ?? 1), Number(hunk[3]) + Number(hunk[4] ?? 1));
  }
  return largest;
}
