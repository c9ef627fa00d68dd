/**
 * Terminal columns of text: grapheme clusters, wide East Asian characters and emoji take two,
 * combining marks and zero-width joiners none. Styled text (SGR colours, OSC 8 links) is measured
 * and wrapped with its escape sequences taking no room.
 */

import { graphemes, graphemeWidth as editorGraphemeWidth } from './text-width.ts';

/** SGR styling and OSC 8 hyperlinks, the only sequences Sylvan itself writes into styled text. */
const STYLE_SEQUENCE = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * Columns of one grapheme cluster, by the line editor's rules (one table of widths for what the
 * user types and what Sylvan prints). Controls take none here: output is sanitised before it is
 * measured, so the only ones left are line breaks.
 */
export function graphemeWidth(grapheme: string): number {
  const code = grapheme.codePointAt(0) ?? 0;
  if (grapheme === '' || (code < 0x20 && grapheme !== '\t') || (code >= 0x7f && code < 0xa0)) return 0;
  return editorGraphemeWidth(grapheme);
}

export { graphemes };

/** Removes Sylvan's styling sequences. */
export function stripStyle(text: string): string {
  return text.replace(STYLE_SEQUENCE, '');
}

/** Columns `text` takes on one terminal line (styling ignored). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const grapheme of graphemes(stripStyle(text))) width += graphemeWidth(grapheme);
  return width;
}

/** Plain text cut to `width` columns, with `…` when something was cut. */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let used = 0;
  let kept = '';
  for (const grapheme of graphemes(text)) {
    used += graphemeWidth(grapheme);
    if (used > width - 1) break;
    kept += grapheme;
  }
  return `${kept}…`;
}

/** Pads styled text with spaces to `width` columns. */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

type Unit = { kind: 'style'; text: string } | { kind: 'space'; text: string; width: number } | { kind: 'word'; text: string; width: number };

/** Full-width punctuation that may not start a line (kinsoku): closing brackets, commas, stops. */
const NO_LINE_START = /^[，。、；：！？」』）》〉】〕｝”’]$/;

/**
 * Splits styled text into style sequences, runs of spaces, and words; each wide grapheme is a word
 * of its own (CJK breaks anywhere), but one that may not start a line joins the word before it.
 */
function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  let last = 0;
  const pushPlain = (plain: string) => {
    let word = '';
    let wordWidth = 0;
    const endWord = () => {
      if (word !== '') units.push({ kind: 'word', text: word, width: wordWidth });
      word = '';
      wordWidth = 0;
    };
    for (const grapheme of graphemes(plain)) {
      if (grapheme === ' ') {
        endWord();
        const previous = units.at(-1);
        if (previous?.kind === 'space') {
          previous.text += ' ';
          previous.width += 1;
        } else units.push({ kind: 'space', text: ' ', width: 1 });
        continue;
      }
      const width = graphemeWidth(grapheme);
      if (NO_LINE_START.test(grapheme)) {
        // Kinsoku: a closing bracket, comma or full stop never starts a line; it stays with what it
        // follows, the word being read or the character before.
        const previous = units.at(-1);
        if (word !== '') {
          word += grapheme;
          wordWidth += width;
          continue;
        }
        if (previous?.kind === 'word') {
          previous.text += grapheme;
          previous.width += width;
          continue;
        }
      }
      if (width === 2) {
        endWord();
        units.push({ kind: 'word', text: grapheme, width });
        continue;
      }
      word += grapheme;
      wordWidth += width;
    }
    endWord();
  };
  for (const match of text.matchAll(STYLE_SEQUENCE)) {
    pushPlain(text.slice(last, match.index));
    units.push({ kind: 'style', text: match[0] });
    last = match.index + match[0].length;
  }
  pushPlain(text.slice(last));
  return units;
}

const SGR_CLOSERS: Record<number, number[]> = {
  22: [1, 2],
  23: [3],
  24: [4],
  27: [7],
  29: [9],
  39: [...range(30, 38), ...range(90, 98)],
  49: [...range(40, 48), ...range(100, 108)],
};

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, index) => from + index);
}

/** The styles open at a point of styled text, so a wrapped line can close them and the next reopen them. */
class OpenStyles {
  private sgr: string[] = [];
  private link: string | undefined;

  apply(sequence: string): void {
    if (sequence.startsWith('\u001b]8;')) {
      this.link = /^\u001b\]8;[^;]*;(?:\u0007|\u001b\\)$/.test(sequence) ? undefined : sequence;
      return;
    }
    const codes = sequence.slice(2, -1).split(';').map(Number);
    for (const code of codes) {
      if (code === 0 || Number.isNaN(code)) this.sgr = [];
      else if (SGR_CLOSERS[code]) this.sgr = this.sgr.filter((open) => !SGR_CLOSERS[code]!.includes(Number(open.slice(2, -1))));
      else this.sgr.push(`\u001b[${code}m`);
    }
  }

  get closing(): string {
    return (this.link ? '\u001b]8;;\u001b\\' : '') + (this.sgr.length > 0 ? '\u001b[0m' : '');
  }

  get reopening(): string {
    return this.sgr.join('') + (this.link ?? '');
  }
}

/**
 * Wraps styled text (no newlines) to lines of at most `width` columns, at spaces where it can and
 * anywhere in a word that does not fit. Styles open at a break are closed and reopened, so each
 * line stands alone (a table cell's colour never bleeds into its border). Leading spaces are
 * dropped like any space at a line's start, unless `keepIndent` (a line of code).
 */
export function wrapStyled(text: string, width: number, options: { keepIndent?: boolean } = {}): string[] {
  const limit = Math.max(1, width);
  let indenting = options.keepIndent === true;
  const lines: string[] = [];
  const styles = new OpenStyles();
  let line = '';
  let used = 0;
  let pendingSpace = '';
  const breakLine = () => {
    lines.push(line + styles.closing);
    line = styles.reopening;
    used = 0;
    pendingSpace = '';
  };
  for (const unit of unitsOf(text)) {
    if (unit.kind === 'style') {
      // A space before a style change belongs before it (an underlined link must not start with one).
      if (pendingSpace !== '' && used + pendingSpace.length < limit) {
        line += pendingSpace;
        used += pendingSpace.length;
        pendingSpace = '';
      }
      styles.apply(unit.text);
      line += unit.text;
      continue;
    }
    if (unit.kind === 'space') {
      if (indenting) {
        line += unit.text;
        used += unit.text.length;
      } else if (used > 0) pendingSpace += unit.text;
      continue;
    }
    indenting = false;
    if (used > 0 && used + pendingSpace.length + unit.width > limit) breakLine();
    if (pendingSpace !== '') {
      line += pendingSpace;
      used += pendingSpace.length;
      pendingSpace = '';
    }
    if (unit.width <= limit - used) {
      line += unit.text;
      used += unit.width;
      continue;
    }
    // A word wider than a line breaks anywhere, but not before what may not start a line: the
    // character before that goes with it.
    let previous = '';
    for (const grapheme of graphemes(unit.text)) {
      const columns = graphemeWidth(grapheme);
      if (used + columns > limit && used > 0) {
        const carried = NO_LINE_START.test(grapheme) && previous !== '' && used > graphemeWidth(previous) ? previous : '';
        line = line.slice(0, line.length - carried.length);
        breakLine();
        line += carried;
        used += graphemeWidth(carried);
      }
      line += grapheme;
      used += columns;
      previous = grapheme;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * A row of items joined by ` · ` (a hint row, a footer) in `width` columns: the longest items
 * between the first and the last are left out until it fits, so both ends stay whole ("ask mode ·
 * shift+tab to switch", never "· shift+tab to switc"); cut only when the two ends alone are too wide.
 */
export function fitItems(text: string, width: number): string {
  const items = text.split(' · ');
  while (displayWidth(items.join(' · ')) > width && items.length > 2) {
    const middle = items.slice(1, -1);
    const longest = middle.indexOf(middle.reduce((a, b) => (displayWidth(b) > displayWidth(a) ? b : a)));
    items.splice(longest + 1, 1);
  }
  return cutToWidth(items.join(' · '), width);
}

/**
 * One line printed on a terminal `width` columns wide, wrapped between words rather than wherever
 * the terminal would break it (`todo_wr|ite`); each row after the first keeps the line's indent
 * and its `│` gutter. A line that fits comes back as it is.
 */
export function wrapToScreen(line: string, width: number): string[] {
  if (width <= 0 || displayWidth(line) <= width) return [line];
  const lead = /^((?:\u001b\[[0-9;]*m)*)( *(?:[│⎿] +)?)/.exec(line);
  const styles = lead?.[1] ?? '';
  const indent = lead?.[2] ?? '';
  const rest = styles + line.slice(styles.length + indent.length);
  const continued = indent.replace('⎿', ' ');
  const room = width - displayWidth(indent);
  if (room < 20) return [line];
  return wrapStyled(rest, room).map((row, index) => `${index === 0 ? indent : continued}${row}`);
}
