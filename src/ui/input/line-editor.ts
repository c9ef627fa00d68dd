import type { Choice } from './line-reader-contract.ts';
import type { ChoiceResult, LineReader, PickRequest, ReadOptions, ReadResult, TypeAhead } from './line-reader-contract.ts';
import { cutToWidth, displayWidth, fitItems } from '../../shared/display-width.ts';
import { sanitize, sanitizeLine } from '../../shared/sanitize.ts';
import { MAX_SUGGESTIONS, type Completer, type Suggestion } from './completion.ts';
import { EditBuffer } from './edit-buffer.ts';
import { FilterList } from './filter-list.ts';
import { HistorySearch } from './history-search.ts';
import { KeyDecoder, type Key } from './keys.ts';
import { OneKeyMenu } from './one-key-menu.ts';
import { InputArea } from './input-area.ts';
import { layOut, plainDisplay, type Display } from './layout.ts';
import { PastePlaceholders, withoutReserved } from './paste-placeholders.ts';
import { enterEditingMode, lendTerminal, withEntersTypedBeforeRawMode } from './terminal-modes.ts';
import { TAB_WIDTH } from '../../shared/text-width.ts';
import { TypeAheadQueue } from './type-ahead-queue.ts';

/** A second Ctrl-C at an empty prompt within this long quits. */
export const EXIT_CONFIRM_MS = 2_000;
/** A Ctrl-C at the prompt this soon after one that stopped a turn quits: the two were one double press. */
const QUIT_AFTER_STOP_MS = 1_000;

export interface LineEditorOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Earlier input, newest first. */
  history: string[];
  completer?: Completer;
  dim?: (text: string) => string;
  now?: () => number;
}

interface ActiveRead {
  prompt: string;
  /** A prompt for a message (history, type-ahead, newlines, menus), not a question like y/n. */
  message: boolean;
  /** A dimmed row under the message (the mode), gone once it is sent. */
  footer?: string;
  onShiftTab?: ReadOptions['onShiftTab'];
  onToggleOutput?: ReadOptions['onToggleOutput'];
  /** Rows shown above the prompt (an expanded tool result), redrawn and erased with it. */
  above?: readonly string[];
  resolve: (result: ReadResult) => void;
}

/** A one-key menu being answered. */
interface ActiveChoice {
  menu: OneKeyMenu;
  resolve: (result: ChoiceResult) => void;
}

/** A `pick` list being answered. */
interface ActivePick {
  request: PickRequest;
  list: FilterList;
  resolve: (index: number | undefined) => void;
}

/**
 * The terminal line editor. It holds the terminal in raw mode from creation to close, so keys typed
 * while a turn runs are never echoed into the answer: they are edited in the same buffer, shown by
 * whoever draws the live rows (`typeAhead`), and each line sent with Enter waits as the next
 * message (Ctrl-D then ends the session after the turn), or goes back into the input if the turn
 * is stopped. Ctrl-C and Esc while a turn runs reach `onInterrupt` listeners, Ctrl+O
 * `onToggleOutput` listeners.
 */
export class LineEditor implements LineReader {
  readonly interactive = true;
  private readonly buffer = new EditBuffer();
  private readonly decoder = new KeyDecoder();
  private readonly pastes = new PastePlaceholders();
  private readonly queue = new TypeAheadQueue();
  private readonly interruptListeners = new Set<() => void>();
  private readonly toggleOutputListeners = new Set<() => void>();
  private readonly restore: () => void;
  private readonly now: () => number;
  private readonly dim: (text: string) => string;
  private historyEntries: string[];
  private historyIndex = -1;
  private draft = '';
  private active: ActiveRead | undefined;
  private choosing: ActiveChoice | undefined;
  private picking: ActivePick | undefined;
  /** Ctrl-R at the message prompt; `lastSearch` is what Ctrl-R Ctrl-R searches for again. */
  private searching: HistorySearch | undefined;
  private lastSearch = '';
  /** Ctrl-X was pressed: Ctrl-E next opens the editor. */
  private ctrlX = false;
  /** The terminal is lent to an editor (Ctrl-G): keys are its, not ours. */
  private lending = false;
  /** The area is drawn one last time before a newline: no rows under the text. */
  private finishing = false;
  /** What the message prompt held when a question interrupted it. */
  private stashed: { text: string; cursor: number } | undefined;
  private readonly area: InputArea;
  private hints: string[] = [];
  private exitArmedAt = Number.NEGATIVE_INFINITY;
  /** When Ctrl-C last stopped a turn (or whatever was running). */
  private stoppedAt = Number.NEGATIVE_INFINITY;
  /** The last message prompt shown: type-ahead is drawn under the same one. */
  private messagePrompt = '› ';
  private rewindArmedAt = Number.NEGATIVE_INFINITY;
  /** The `/` menu's first row shown (↓ scrolls it), for the text it was scrolled at. */
  private menuFrom = 0;
  private menuText = '';
  private closed = false;
  /** No input read yet: the first chunk may hold lines typed before raw mode. */
  private firstChunk = true;

  constructor(private readonly options: LineEditorOptions) {
    this.historyEntries = [...options.history];
    this.now = options.now ?? Date.now;
    this.dim = options.dim ?? ((text) => text);
    this.area = new InputArea(options.output, this.dim);
    this.restore = enterEditingMode(options.input, options.output);
    options.input.setEncoding('utf8');
    options.input.on('data', this.onData);
    options.output.on('resize', this.onResize);
    process.on('SIGINT', this.onSigint);
    options.input.resume();
  }

  get history(): readonly string[] {
    return this.historyEntries;
  }

  readonly typeAhead: TypeAhead = {
    view: (columns) => this.typeAheadView(columns),
    watch: (changed) => this.queue.watch(changed),
    takeBack: () => {
      const lines = this.queue.takeAll();
      if (lines.length === 0) return;
      const text = [...lines, this.buffer.text].filter((line) => line !== '').join('\n');
      this.buffer.set(text, text.length);
      this.historyIndex = -1;
      this.queue.changed();
    },
  };

  /** Ctrl-C or Esc while no message is being typed (a turn runs). Returns the unsubscribe. */
  onInterrupt(handler: () => void): () => void {
    this.interruptListeners.add(handler);
    return () => this.interruptListeners.delete(handler);
  }

  /** Ctrl+O while no message is being typed (a turn runs). Returns the unsubscribe. */
  onToggleOutput(handler: () => void): () => void {
    this.toggleOutputListeners.add(handler);
    return () => this.toggleOutputListeners.delete(handler);
  }

  read(prompt: string, options: ReadOptions = {}): Promise<ReadResult> {
    const message = options.remember !== false;
    if (message) {
      this.messagePrompt = prompt;
      const queued = this.queue.shift();
      if (queued?.kind === 'eof') return Promise.resolve(queued);
      if (queued) {
        const line = this.pastes.expand(queued.text);
        this.write(`${prompt}${sanitize(line)}${this.dim('  · queued')}\n`);
        this.remember(line);
        return Promise.resolve({ kind: 'line', line });
      }
    } else {
      this.stashed = { text: this.buffer.text, cursor: this.buffer.cursor };
      this.buffer.set('');
    }
    if (this.closed) return Promise.resolve({ kind: 'eof' });
    return new Promise((resolve) => {
      this.active = {
        prompt,
        message,
        resolve,
        ...(message && { footer: options.footer, onShiftTab: options.onShiftTab, onToggleOutput: options.onToggleOutput }),
      };
      this.area.reset();
      this.draw();
    });
  }

  /**
   * A menu answered by one key without Enter: a choice's key (or its number) picks it at once,
   * ↑/↓ move the mark and Enter picks the marked one; Esc, Ctrl-C and Ctrl-D come back as such.
   * The message being typed (if any) waits, as for a question.
   */
  setFooter(footer: string): void {
    const read = this.active;
    if (!read?.message || read.footer === footer) return;
    read.footer = footer;
    if (!this.choosing && !this.finishing) this.draw();
  }

  choose(question: string, choices: readonly Choice[]): Promise<ChoiceResult> {
    if (this.closed) return Promise.resolve({ kind: 'eof' });
    this.stashed = { text: this.buffer.text, cursor: this.buffer.cursor };
    this.buffer.set('');
    return new Promise((resolve) => {
      this.choosing = { menu: new OneKeyMenu(question, choices), resolve };
      this.area.reset();
      this.draw();
    });
  }

  /**
   * Lines printed above the input while the user types (an MCP server that failed meanwhile), the
   * input drawn again under them as it was.
   */
  interject(lines: readonly string[]): void {
    if (this.closed || lines.length === 0) return;
    const drawn = this.active !== undefined || this.choosing !== undefined || this.picking !== undefined;
    if (drawn) this.area.erase();
    this.write(lines.map((line) => `${line}\n`).join(''));
    if (drawn) this.draw();
  }

  /** A list narrowed as the user types (the session picker); see `LineReader.pick`. */
  pick(request: PickRequest): Promise<number | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    this.stashed = { text: this.buffer.text, cursor: this.buffer.cursor };
    this.buffer.set('');
    return new Promise((resolve) => {
      this.picking = { request, list: new FilterList(request), resolve };
      this.area.reset();
      this.draw();
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.options.input.off('data', this.onData);
    this.options.output.off('resize', this.onResize);
    process.off('SIGINT', this.onSigint);
    this.options.input.pause();
    this.restore();
    this.active?.resolve({ kind: 'eof' });
    this.choosing?.resolve({ kind: 'eof' });
    this.picking?.resolve(undefined);
  }

  /** Feeds raw terminal input; the stream's data events come here (tests may call it directly). */
  readonly onData = (chunk: string | Buffer): void => {
    if (this.lending) return;
    let text = String(chunk);
    if (this.firstChunk) {
      this.firstChunk = false;
      text = withEntersTypedBeforeRawMode(text);
    }
    for (const key of this.decoder.decode(text)) {
      if (this.picking) this.handlePick(key, this.picking);
      else if (this.choosing) this.handleChoice(key, this.choosing);
      else if (this.active) this.handle(key, this.active);
      else this.typedDuringTurn(key);
    }
  };

  private readonly onSigint = () => this.onData('\x03');

  private readonly onResize = () => {
    if (!this.active && !this.choosing && !this.picking) return;
    this.area.resized();
    this.draw();
  };

  /**
   * Keys while a turn runs: edited in the buffer and drawn by the live area; Enter queues the line
   * as typed (a long paste stays a placeholder until it is sent, or taken back).
   */
  private typedDuringTurn(key: Key): void {
    if (key.kind === 'key' && (key.name === 'interrupt' || key.name === 'escape')) {
      if (key.name === 'interrupt' && this.interruptListeners.size > 0) this.stoppedAt = this.now();
      for (const listener of [...this.interruptListeners]) listener();
      return;
    }
    if (key.kind === 'key' && key.name === 'toggle-output') {
      for (const listener of [...this.toggleOutputListeners]) listener();
      return;
    }
    if (key.kind === 'key' && key.name === 'return') {
      if (!this.continueLine()) {
        const text = this.buffer.text;
        this.buffer.set('');
        this.historyIndex = -1;
        if (text.trim() !== '') this.queue.push({ kind: 'line', text });
      }
    } else if (key.kind === 'key' && key.name === 'end-of-input' && this.buffer.text === '') {
      this.queue.push({ kind: 'eof' });
    } else {
      this.edit(key, true);
    }
    this.queue.changed();
  }

  /** The queued messages dimmed, one row each, then the text being typed under the message prompt. */
  private typeAheadView(columns: number): ReturnType<TypeAhead['view']> {
    if (this.active || this.choosing || this.closed) return { rows: [] };
    const rows = this.queue.lines.map((text) => this.dim(cutToWidth(`queued: ${this.summary(text)}`, columns)));
    if (this.buffer.text === '') return { rows };
    const layout = layOut(this.messagePrompt, this.buffer.text, this.buffer.cursor, columns, this.display);
    return {
      rows: [...rows, ...layout.rows],
      cursor: { rowsBelow: layout.rows.length - 1 - layout.cursor.row, column: layout.cursor.column },
    };
  }

  /** A queued message on one row: its first line (pastes by their labels), and how many more. */
  private summary(text: string): string {
    const lines = text.split('\n');
    const first = [...lines[0]!].map((character) => this.pastes.label(character) ?? character).join('');
    const more = lines.length > 1 ? ` (+${lines.length - 1} line${lines.length === 2 ? '' : 's'})` : '';
    return sanitizeLine(first) + more;
  }

  private handle(key: Key, read: ActiveRead): void {
    this.hints = [];
    if (this.searching && this.handleSearch(key, this.searching)) {
      this.exitArmedAt = this.rewindArmedAt = Number.NEGATIVE_INFINITY;
      return this.draw();
    }
    if (this.ctrlX) {
      this.ctrlX = false;
      if (key.kind === 'key' && key.name === 'end') return void this.editExternally(read);
    }
    if (key.kind === 'key') {
      switch (key.name) {
        case 'return':
          if (read.message && this.continueLine()) break;
          return this.finish(read, { kind: 'line', line: this.pastes.expand(this.buffer.text) });
        case 'end-of-input':
          if (this.buffer.text !== '') this.buffer.deleteForward();
          else return this.finish(read, { kind: 'eof' });
          break;
        case 'interrupt':
          if (!read.message) return this.finish(read, { kind: 'interrupt', hadText: this.buffer.text !== '' });
          if (this.now() - this.stoppedAt < QUIT_AFTER_STOP_MS) return this.finish(read, { kind: 'interrupt', hadText: false });
          if (this.buffer.text !== '') {
            this.take();
            break;
          }
          if (this.now() - this.exitArmedAt < EXIT_CONFIRM_MS) return this.finish(read, { kind: 'interrupt', hadText: false });
          this.exitArmedAt = this.now();
          this.hints = [this.dim('Press Ctrl-C again to exit')];
          break;
        case 'escape':
          // At a question Esc backs out like Ctrl-C; at the message prompt it only closes what is shown under it.
          if (!read.message) return this.finish(read, { kind: 'interrupt', hadText: this.buffer.text !== '' });
          // Twice at an empty prompt: /rewind, as if typed.
          if (this.buffer.text === '' && this.now() - this.rewindArmedAt < EXIT_CONFIRM_MS) {
            return this.finish(read, { kind: 'line', line: '/rewind' });
          }
          if (this.buffer.text === '') {
            this.rewindArmedAt = this.now();
            this.hints = [this.dim('Press Esc again to rewind (/rewind)')];
          }
          break;
        case 'clear-screen':
          this.write('\x1b[H\x1b[2J\x1b[3J');
          this.area.reset({ atTop: true });
          break;
        case 'up':
        case 'down':
          this.moveVertically(key.name, read);
          break;
        case 'tab':
          this.completeAtCursor(read);
          break;
        case 'reverse-search':
          if (read.message) this.searching = new HistorySearch(this.historyEntries, { text: this.buffer.text, cursor: this.buffer.cursor });
          break;
        case 'edit-externally':
          if (read.message) return void this.editExternally(read);
          break;
        case 'ctrl-x':
          this.ctrlX = read.message;
          break;
        case 'toggle-output':
          if (read.onToggleOutput) read.above = read.onToggleOutput();
          break;
        case 'shift-tab':
          if (read.onShiftTab) {
            const next = read.onShiftTab();
            read.prompt = next.prompt;
            read.footer = next.footer;
          }
          break;
        default:
          this.edit(key, read.message);
      }
    } else this.edit(key, read.message);
    if (key.kind !== 'key' || key.name !== 'interrupt') this.exitArmedAt = Number.NEGATIVE_INFINITY;
    if (key.kind !== 'key' || key.name !== 'escape') this.rewindArmedAt = Number.NEGATIVE_INFINITY;
    this.draw();
  }

  /** Editing keys shared by the visible prompt and invisible type-ahead. */
  private edit(key: Key, multiline: boolean): void {
    if (key.kind === 'text') return this.buffer.insert(withoutReserved(key.text));
    if (key.kind === 'paste') {
      const pasted = this.pastes.add(key.text);
      return this.buffer.insert(multiline ? pasted : pasted.replace(/\n/g, ' '));
    }
    const buffer = this.buffer;
    const actions: Partial<Record<typeof key.name, () => void>> = {
      newline: () => multiline && buffer.insert('\n'),
      backspace: () => buffer.backspace(),
      delete: () => buffer.deleteForward(),
      'end-of-input': () => buffer.deleteForward(),
      'delete-word-before': () => buffer.deleteWordBefore(),
      left: () => buffer.left(),
      right: () => buffer.right(),
      home: () => buffer.home(),
      end: () => buffer.end(),
      'word-left': () => buffer.wordLeft(),
      'word-right': () => buffer.wordRight(),
      'kill-before': () => buffer.killBefore(),
      'kill-after': () => buffer.killAfter(),
    };
    actions[key.name]?.();
  }

  /** `\` + Enter: the backslash becomes a newline instead of sending. */
  private continueLine(): boolean {
    const { text, cursor } = this.buffer;
    if (cursor === 0 || text[cursor - 1] !== '\\') return false;
    this.buffer.set(text.slice(0, cursor - 1) + text.slice(cursor), cursor - 1);
    this.buffer.insert('\n');
    return true;
  }

  /**
   * Empties the buffer and gives back the message it held, pastes put back. A question keeps the
   * pastes: the message it interrupted may still hold some.
   */
  private take(forgetPastes = true): string {
    const line = this.pastes.expand(this.buffer.text);
    this.buffer.set('');
    if (forgetPastes) this.pastes.clear();
    this.historyIndex = -1;
    return line;
  }

  /**
   * A key during Ctrl-R, as readline takes it: typing and Backspace change the search, Ctrl-R finds
   * an older match, Esc / Ctrl-G / Ctrl-C cancel it with the buffer as it was. Any other key ends
   * the search with the match in the buffer and is then handled as usual, so Enter sends the match
   * and → or Home starts editing it. Returns true when the key was the search's own.
   */
  private handleSearch(key: Key, search: HistorySearch): boolean {
    if (key.kind === 'text' || key.kind === 'paste') {
      search.type(key.text);
      return true;
    }
    switch (key.name) {
      case 'reverse-search':
        search.older(this.lastSearch);
        return true;
      case 'backspace':
        search.back();
        return true;
      case 'escape':
      case 'interrupt':
      case 'edit-externally':
        this.buffer.set(search.original.text, search.original.cursor);
        this.searching = undefined;
        return true;
      default:
        if (search.query !== '') this.lastSearch = search.query;
        this.buffer.set(search.text, search.cursor);
        this.historyIndex = -1;
        this.searching = undefined;
        return false;
    }
  }

  /**
   * Ctrl-G or Ctrl-X Ctrl-E: the message in `$VISUAL` / `$EDITOR`. The prompt is cleared and the
   * terminal lent to the editor; what the editor saved becomes the buffer (not sent). When no editor
   * can start, one line says so above the prompt.
   */
  private async editExternally(read: ActiveRead): Promise<void> {
    this.lending = true;
    this.area.erase();
    const text = this.pastes.expand(this.buffer.text);
    const takeBack = lendTerminal(this.options.input, this.options.output);
    let outcome: { kind: 'edited'; text: string } | { kind: 'failed'; message: string };
    try {
      outcome = await import('./external-editor.ts').then(({ editInExternalEditor }) => editInExternalEditor(text));
    } catch (error) {
      outcome = { kind: 'failed', message: `The editor could not be opened (${(error as Error).message}); the input is unchanged.` };
    } finally {
      this.lending = false;
      if (!this.closed) takeBack();
    }
    if (this.closed || this.active !== read) return;
    if (outcome.kind === 'edited') {
      this.pastes.clear();
      this.buffer.set(outcome.text);
      this.historyIndex = -1;
    } else {
      this.write(`${this.dim(sanitizeLine(outcome.message))}\r\n`);
    }
    this.draw();
  }

  private handlePick(key: Key, picking: ActivePick): void {
    const outcome = picking.list.handle(key);
    if (outcome === undefined) return this.draw();
    const chosen = outcome === 'picked' ? picking.list.chosen : undefined;
    const answer = chosen === undefined ? '(cancelled)' : sanitizeLine(picking.request.items[chosen]!.title);
    this.area.draw({ prompt: picking.request.prompt, text: answer, cursor: answer.length, display: this.display, below: [] });
    this.area.leave();
    this.picking = undefined;
    if (this.stashed) {
      this.buffer.set(this.stashed.text, this.stashed.cursor);
      this.stashed = undefined;
    }
    picking.resolve(chosen);
  }

  private handleChoice(key: Key, choosing: ActiveChoice): void {
    const answer = choosing.menu.handle(key);
    if (answer === undefined) return;
    if (answer === 'moved') return this.draw();
    // The question stays on screen with the answer after it; the menu goes.
    this.area.draw({ prompt: choosing.menu.prompt, text: answer.shown, cursor: answer.shown.length, display: this.display, below: [] });
    this.area.leave();
    this.choosing = undefined;
    if (this.stashed) {
      this.buffer.set(this.stashed.text, this.stashed.cursor);
      this.stashed = undefined;
    }
    choosing.resolve(answer.result);
  }

  private finish(read: ActiveRead, result: ReadResult): void {
    this.hints = [];
    this.buffer.cursor = this.buffer.text.length;
    this.finishing = true;
    this.draw();
    this.finishing = false;
    this.take(read.message);
    this.area.leave();
    this.active = undefined;
    if (read.message && result.kind === 'line') this.remember(result.line);
    if (!read.message && this.stashed) {
      this.buffer.set(this.stashed.text, this.stashed.cursor);
      this.stashed = undefined;
    }
    read.resolve(result);
  }

  private remember(line: string): void {
    if (line.trim() !== '' && this.historyEntries[0] !== line) this.historyEntries = [line, ...this.historyEntries].slice(0, 500);
  }

  private moveVertically(direction: 'up' | 'down', read: ActiveRead): void {
    if (read.message && this.hints.length === 0 && this.scrollMenu(direction)) return;
    const layout = this.area.layout(this.content(read));
    const { row, column } = layout.cursor;
    const first = layout.places.get(0)!.row;
    const last = layout.places.get(this.buffer.text.length)!.row;
    const target = direction === 'up' ? row - 1 : row + 1;
    if (target >= first && target <= last) {
      let best: number | undefined;
      for (const [index, place] of layout.places) {
        if (place.row !== target) continue;
        if (best === undefined || place.column <= column) best = index;
      }
      if (best !== undefined) this.buffer.cursor = best;
      return;
    }
    if (!read.message) return;
    const next = this.historyIndex + (direction === 'up' ? 1 : -1);
    if (next < -1 || next >= this.historyEntries.length) return;
    if (this.historyIndex === -1) this.draft = this.buffer.text;
    this.historyIndex = next;
    const text = next === -1 ? this.draft : this.historyEntries[next]!;
    // Up lands at the end of the older entry; down at the start of its first line, to keep going down.
    this.buffer.set(text, direction === 'up' || next === -1 ? text.length : 0);
  }

  /** The `/` menu's first row shown: back to the top once the text changed. */
  private menuStart(): number {
    if (this.menuText !== this.buffer.text) [this.menuText, this.menuFrom] = [this.buffer.text, 0];
    return this.menuFrom;
  }

  /** ↑/↓ while the `/` menu holds more than it shows: the window moves; false when it cannot. */
  private scrollMenu(direction: 'up' | 'down'): boolean {
    const total = this.options.completer?.count(this.buffer.text) ?? 0;
    if (total <= MAX_SUGGESTIONS) return false;
    this.menuStart();
    const next = this.menuFrom + (direction === 'down' ? 1 : -1);
    if (next < 0 || next > total - MAX_SUGGESTIONS) return direction === 'down';
    this.menuFrom = next;
    return true;
  }

  private completeAtCursor(read: ActiveRead): void {
    const completer = this.options.completer;
    if (!completer || !read.message) return;
    const { text, cursor } = this.buffer;
    void completer.complete(text, cursor).then((completion) => {
      if (!completion || this.active !== read || this.buffer.text !== text || this.buffer.cursor !== cursor) return;
      this.buffer.set(text.slice(0, completion.from) + completion.text + text.slice(completion.to), completion.from + completion.text.length);
      this.hints = completion.suggestions.map((suggestion) => this.area.suggestionRow(suggestion, false));
      this.draw();
    });
  }

  private readonly display: Display = (grapheme) => {
    const label = this.pastes.label(grapheme);
    if (label !== undefined) return { text: this.dim(label), width: label.length };
    if (grapheme === '\t') return { text: ' '.repeat(TAB_WIDTH), width: TAB_WIDTH };
    const safe = sanitizeLine(grapheme);
    return safe === grapheme ? plainDisplay(grapheme) : { text: safe, width: [...safe].length };
  };

  private content(read: ActiveRead) {
    return { prompt: read.prompt, text: this.buffer.text, cursor: this.buffer.cursor, display: this.display };
  }

  /** Redraws the prompt, the text and the rows under it in place, the cursor where it belongs. */
  private draw(): void {
    if (this.picking) {
      const { request, list } = this.picking;
      const below = list.rows(this.area.columns() - 1, this.dim);
      return this.area.draw({ prompt: request.prompt, text: list.query.text, cursor: list.query.cursor, display: this.display, below });
    }
    if (this.choosing) {
      const { menu } = this.choosing;
      return this.area.draw({ prompt: menu.prompt, text: '', cursor: 0, display: this.display, below: menu.rows(this.dim) });
    }
    const read = this.active;
    if (!read) return;
    if (this.searching) {
      const search = this.searching;
      const below = read.footer ? [this.dim(fitItems(sanitizeLine(read.footer), this.area.columns() - 1))] : [];
      return this.area.draw({ prompt: search.prompt, text: search.text, cursor: search.cursor, display: this.display, below });
    }
    const completer = this.options.completer;
    const below = this.finishing
      ? []
      : this.hints.length > 0 || !read.message || !completer
        ? [...this.hints]
        : menuRows(completer.suggest(this.buffer.text, this.buffer.cursor, this.menuStart()), this.area);
    if (read.footer && !this.finishing) below.push(this.dim(fitItems(sanitizeLine(read.footer), this.area.columns() - 1)));
    this.area.draw({ ...this.content(read), above: read.above, below });
  }

  private write(text: string): void {
    this.options.output.write(text);
  }
}

/** The `/` menu's rows, the names in one column as wide as the longest (MCP prompts are long). */
function menuRows(suggestions: readonly Suggestion[], area: InputArea): string[] {
  const width = Math.max(12, ...suggestions.map((suggestion) => displayWidth(sanitizeLine(suggestion.label))));
  return suggestions.map((suggestion) => area.suggestionRow(suggestion, true, width));
}
