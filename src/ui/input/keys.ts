/** One thing the user did at the keyboard, decoded from the terminal's bytes. */
export type Key =
  | { kind: 'text'; text: string }
  | { kind: 'paste'; text: string }
  | { kind: 'key'; name: KeyName };

export type KeyName =
  | 'return'
  | 'newline'
  | 'backspace'
  | 'delete'
  | 'delete-word-before'
  | 'left'
  | 'right'
  | 'up'
  | 'down'
  | 'home'
  | 'end'
  | 'word-left'
  | 'word-right'
  | 'tab'
  | 'shift-tab'
  | 'escape'
  | 'interrupt'
  | 'end-of-input'
  | 'kill-before'
  | 'kill-after'
  | 'clear-screen'
  | 'reverse-search'
  | 'edit-externally'
  | 'ctrl-x';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

const CONTROL_KEYS: Record<string, KeyName> = {
  '\x01': 'home', // Ctrl-A
  '\x02': 'left', // Ctrl-B
  '\x03': 'interrupt', // Ctrl-C
  '\x04': 'end-of-input', // Ctrl-D (deletes forward when there is text; the editor decides)
  '\x05': 'end', // Ctrl-E
  '\x06': 'right', // Ctrl-F
  '\x07': 'edit-externally', // Ctrl-G (in a history search: cancel it)
  '\x08': 'backspace', // Ctrl-H
  '\t': 'tab',
  '\n': 'newline', // Ctrl-J
  '\x0b': 'kill-after', // Ctrl-K
  '\x0c': 'clear-screen', // Ctrl-L
  '\r': 'return',
  '\x0e': 'down', // Ctrl-N
  '\x10': 'up', // Ctrl-P
  '\x12': 'reverse-search', // Ctrl-R
  '\x15': 'kill-before', // Ctrl-U
  '\x17': 'delete-word-before', // Ctrl-W
  '\x18': 'ctrl-x', // the start of Ctrl-X Ctrl-E
  '\x7f': 'backspace',
};

const ARROWS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const TILDE_KEYS: Record<string, KeyName> = { '1': 'home', '7': 'home', '4': 'end', '8': 'end', '3': 'delete' };

/**
 * Turns terminal input into keys. Stateful: a bracketed paste or an escape sequence may be split
 * across reads, so what is incomplete waits for the next chunk. A lone ESC at the end of a chunk is
 * the Esc key (terminals send a sequence in one write).
 */
export class KeyDecoder {
  private pending = '';
  private paste: string | undefined;

  decode(chunk: string): Key[] {
    const keys: Key[] = [];
    let input = this.pending + chunk;
    this.pending = '';
    while (input.length > 0) {
      if (this.paste !== undefined) {
        const end = input.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible start of the end marker for the next chunk.
          const keep = partialSuffix(input, PASTE_END);
          this.paste += input.slice(0, input.length - keep);
          this.pending = input.slice(input.length - keep);
          return keys;
        }
        keys.push({ kind: 'paste', text: this.paste + input.slice(0, end) });
        this.paste = undefined;
        input = input.slice(end + PASTE_END.length);
        continue;
      }
      if (input.startsWith(PASTE_START)) {
        this.paste = '';
        input = input.slice(PASTE_START.length);
        continue;
      }
      const first = input[0]!;
      if (first === '\x1b') {
        const sequence = readEscape(input);
        if (sequence === undefined) {
          this.pending = input;
          return keys;
        }
        const name = nameOfEscape(sequence);
        if (name) keys.push({ kind: 'key', name });
        input = input.slice(sequence.length);
        continue;
      }
      const control = CONTROL_KEYS[first];
      if (control) {
        keys.push({ kind: 'key', name: control });
        input = input.slice(1);
        continue;
      }
      const text = /^[^\x00-\x1f\x7f]+/.exec(input)?.[0];
      if (text) {
        const last = keys.at(-1);
        if (last?.kind === 'text') last.text += text;
        else keys.push({ kind: 'text', text });
        input = input.slice(text.length);
        continue;
      }
      input = input.slice(1); // another control character: ignored
    }
    return keys;
  }
}

/** The escape sequence at the start of `input`, or undefined when it is cut off. */
function readEscape(input: string): string | undefined {
  if (input.length === 1) return input; // lone ESC: the Esc key
  const second = input[1]!;
  if (second === '[') {
    const match = /^\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]/.exec(input);
    if (match) return match[0];
    return /^\x1b\[[\x20-\x3f]*$/.test(input) ? undefined : input.slice(0, 2);
  }
  if (second === 'O') return input.length >= 3 ? input.slice(0, 3) : undefined;
  if (second === '\x1b') return input.slice(0, 1); // ESC ESC: the first is Esc
  return input.slice(0, 2); // Alt + one key
}

function nameOfEscape(sequence: string): KeyName | undefined {
  if (sequence === '\x1b') return 'escape';
  if (sequence.length === 2) {
    const key = sequence[1]!;
    if (key === '\r' || key === '\n') return 'newline'; // Alt+Enter
    if (key === '\x7f' || key === '\x08') return 'delete-word-before';
    if (key === 'b' || key === 'B') return 'word-left';
    if (key === 'f' || key === 'F') return 'word-right';
    return undefined;
  }
  if (sequence.startsWith('\x1bO')) return ARROWS[sequence[2]!];
  const body = sequence.slice(2, -1);
  const final = sequence.at(-1)!;
  const [first = '', modifier = '1', third] = body.split(';');
  const modifiers = Number(modifier) - 1; // bit 0 shift, bit 1 alt, bit 2 ctrl
  if (final in ARROWS) {
    const name = ARROWS[final]!;
    if (modifiers & 0b110 && name === 'left') return 'word-left';
    if (modifiers & 0b110 && name === 'right') return 'word-right';
    return name;
  }
  if (final === 'Z') return 'shift-tab'; // CSI Z: back-tab
  if (final === '~') {
    if (first === '27' && third === '13') return Number(modifier) > 1 ? 'newline' : 'return'; // xterm modifyOtherKeys
    return TILDE_KEYS[first];
  }
  if (final === 'u') {
    // CSI-u (fixterms / kitty): Enter with Shift or Alt is a newline.
    if (first === '13') return modifiers > 0 ? 'newline' : 'return';
    if (first === '127') return modifiers & 0b110 ? 'delete-word-before' : 'backspace';
    if (first === '27') return 'escape';
    if (first === '99' && modifiers & 0b100) return 'interrupt';
    if (first === '100' && modifiers & 0b100) return 'end-of-input';
  }
  return undefined;
}

/** How many characters at the end of `text` are a start of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(marker.slice(0, length))) return length;
  }
  return 0;
}
