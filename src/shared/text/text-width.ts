import { isDenseCodePoint } from './token-estimate.ts';

let segmenter: Intl.Segmenter | undefined;

/**
 * Characters that are always a grapheme of their own and never join the next one: ASCII, Latin,
 * general punctuation, box drawing and block elements, braille (the frames and the spinner Sylvan
 * draws), CJK ideographs and punctuation, kana, hangul syllables, full-width forms, and ESC (a
 * control, so a grapheme alone: the styled rows Sylvan draws start their colours with it) —
 * without any combining mark, joiner, variation selector, jamo or surrogate. Text made only of these
 * is split without Intl.Segmenter, whose first use costs 10-15 ms of ICU set-up at start-up.
 */
const SIMPLE = /^[\t\n\x1b\x20-\x7e\u00a0-\u02ff\u2010-\u2027\u2030-\u205e\u2500-\u259f\u2800-\u28ff\u3000-\u3029\u3030-\u3098\u309b-\u30ff\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff9d]*$/;

/** The user-perceived characters of `text`: a flag, a family emoji or `e` + accent is one each. */
export function graphemes(text: string): string[] {
  if (SIMPLE.test(text)) return text.split('');
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Built on first use: each Unicode-property pattern costs ~0.4 ms to build, and a prompt needs none. */
let unicodeClasses: { zeroWidth: RegExp; pictographic: RegExp; regionalIndicator: RegExp } | undefined;
const classes = () =>
  (unicodeClasses ??= {
    zeroWidth: /^[\p{Mn}\p{Me}\p{Cf}\u200b]+$/u,
    pictographic: /\p{Extended_Pictographic}/u,
    regionalIndicator: /\p{Regional_Indicator}/u,
  });

/**
 * Terminal columns of one grapheme: East Asian wide and full-width characters (CJK, kana, hangul,
 * full-width forms) and emoji take two; combining marks and format characters take none; a tab is
 * drawn as four spaces by the editor. Controls are drawn as one visible symbol.
 */
export function graphemeWidth(grapheme: string): number {
  if (grapheme === '\t') return TAB_WIDTH;
  const code = grapheme.codePointAt(0) ?? 0;
  // The common case without the Unicode-property regexes, whose first use sets up ICU (~10 ms).
  if (grapheme.length === 1 && SIMPLE.test(grapheme)) return isDenseCodePoint(code) && !(code >= 0xff61 && code <= 0xffdc) ? 2 : 1;
  const { zeroWidth, pictographic, regionalIndicator } = classes();
  if (zeroWidth.test(grapheme)) return 0;
  // Half-width katakana and hangul, and the half-width symbols, sit inside the full-width block.
  if ((code >= 0xff61 && code <= 0xffdc) || (code >= 0xffe8 && code <= 0xffee)) return 1;
  if (isDenseCodePoint(code)) return 2;
  if (grapheme.includes('\u20e3')) return 2; // keycap emoji: 1️⃣
  // An emoji: pictographs shown as emoji (most above U+1F000, or any with the emoji selector), flags.
  if (pictographic.test(grapheme) && (code >= 0x1f000 || grapheme.includes('\ufe0f') || grapheme.includes('\u200d'))) return 2;
  if (regionalIndicator.test(grapheme)) return 2;
  if ((code >= 0x231a && code <= 0x231b) || (code >= 0x23e9 && code <= 0x23ec) || code === 0x23f0 || code === 0x23f3) return 2;
  if ((code >= 0x25fd && code <= 0x25fe) || (code >= 0x2614 && code <= 0x2615) || (code >= 0x2648 && code <= 0x2653)) return 2;
  if (code === 0x26a1 || code === 0x26bd || code === 0x26be || code === 0x26c4 || code === 0x26c5 || code === 0x26d4) return 2;
  if (code === 0x2705 || code === 0x270a || code === 0x270b || code === 0x2728 || code === 0x274c || code === 0x2753) return 2;
  if (code === 0x2757 || (code >= 0x2795 && code <= 0x2797) || code === 0x27b0 || code === 0x27bf || code === 0x2b50) return 2;
  return 1;
}

/** How the editor draws a tab: a fixed four columns, so widths never depend on tab stops. */
export const TAB_WIDTH = 4;

/** Terminal columns of `text` (one line; no newlines). */
export function textWidth(text: string): number {
  let width = 0;
  for (const grapheme of graphemes(text)) width += graphemeWidth(grapheme);
  return width;
}
