import { displayWidth, fitItems } from '../../../shared/text/display-width.ts';
import { sanitizeLine } from '../../../shared/text/sanitize.ts';
import { MAX_SUGGESTIONS, type Completer, type Suggestion } from '../completion.ts';
import type { AreaContent, InputArea } from '../input-area.ts';
import type { Key } from '../keys.ts';
import type { ReadOptions, ReadResult } from '../line-reader-contract.ts';
import { HistorySearchMode } from './history-search-mode.ts';
import type { KeyMode } from './key-mode.ts';
import type { SharedInput } from './shared-input.ts';

/** A second Ctrl-C at an empty prompt within this long quits. */
export const EXIT_CONFIRM_MS = 2_000;
/** A Ctrl-C at the prompt this soon after one that stopped a turn quits: the two were one double press. */
const QUIT_AFTER_STOP_MS = 1_000;
/** Keys typed after Tab wait at most this long for its completion (which may read the disk). */
const HOLD_FOR_COMPLETION_MS = 1_000;

/** A prompt being answered: the message prompt, or a question (y/n, a name). */
export interface ActiveRead {
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

/** What the prompt needs from the editor around it. */
export interface PromptHooks {
  now(): number;
  /** When Ctrl-C last stopped a turn. */
  stoppedAt(): number;
  draw(): void;
  /** Ctrl-G: the terminal lent to `$VISUAL` / `$EDITOR` for the message. */
  editExternally(read: ActiveRead): void;
  /** A key handed to whichever mode the editor shows now (the prompt, or the type-ahead after Enter). */
  dispatch(key: Key): void;
}

/**
 * Typing at a prompt: editing keys, Enter sends, history on ↑/↓, Tab completes, the `/` menu under
 * the message, Ctrl-R searches the history (a mode of its own, asked first). One instance lives as
 * long as the editor: the double presses (Ctrl-C, Esc) and the last search outlast a prompt.
 */
export class PromptMode implements KeyMode {
  /** The prompt being answered, if any. */
  read: ActiveRead | undefined;
  private searching: HistorySearchMode | undefined;
  private readonly searchMemory = { lastSearch: '' };
  /** Ctrl-X was pressed: Ctrl-E next opens the editor. */
  private ctrlX = false;
  /** The area is drawn one last time before a newline: no rows under the text. */
  private finishing = false;
  private hints: string[] = [];
  private exitArmedAt = Number.NEGATIVE_INFINITY;
  private rewindArmedAt = Number.NEGATIVE_INFINITY;
  /** The `/` menu's first row shown (↓ scrolls it), for the text it was scrolled at. */
  private menuFrom = 0;
  /**
   * Keys typed while a Tab completion is worked out, handled after it in the order typed: Tab and
   * Enter at once (a fast typist, a terminal under load) send the completed text, not the typed.
   */
  private held: Key[] | undefined;
  private menuText = '';

  constructor(
    private readonly shared: SharedInput,
    private readonly completer: Completer | undefined,
    private readonly hooks: PromptHooks,
  ) {}

  start(read: ActiveRead): void {
    this.read = read;
    this.shared.area.reset();
    this.hooks.draw();
  }

  /** A new row under the message; false when nothing changed on screen. */
  setFooter(footer: string): boolean {
    const read = this.read;
    if (!read?.message || read.footer === footer) return false;
    read.footer = footer;
    return !this.finishing;
  }

  handle(key: Key): boolean {
    const read = this.read;
    if (!read) return false;
    if (this.held) {
      this.held.push(key);
      return true;
    }
    this.hints = [];
    if (this.searching?.handle(key)) {
      this.exitArmedAt = this.rewindArmedAt = Number.NEGATIVE_INFINITY;
      this.hooks.draw();
      return true;
    }
    if (this.ctrlX) {
      this.ctrlX = false;
      if (key.kind === 'key' && key.name === 'end') return this.hooks.editExternally(read), true;
    }
    if (key.kind === 'key' && this.handleNamed(key, read) === 'finished') return true;
    if (key.kind !== 'key') this.shared.edit(key, read.message);
    if (key.kind !== 'key' || key.name !== 'interrupt') this.exitArmedAt = Number.NEGATIVE_INFINITY;
    if (key.kind !== 'key' || key.name !== 'escape') this.rewindArmedAt = Number.NEGATIVE_INFINITY;
    this.hooks.draw();
    return true;
  }

  /** A named key at the prompt; 'finished' when it answered the prompt (or handed it on). */
  private handleNamed(key: Extract<Key, { kind: 'key' }>, read: ActiveRead): 'finished' | undefined {
    const { buffer } = this.shared;
    switch (key.name) {
      case 'return':
        if (read.message && this.shared.continueLine()) break;
        return this.finish(read, { kind: 'line', line: this.shared.pastes.expand(buffer.text) });
      case 'end-of-input':
        if (buffer.text !== '') buffer.deleteForward();
        else return this.finish(read, { kind: 'eof' });
        break;
      case 'interrupt':
        return this.interrupt(read);
      case 'escape':
        return this.escape(read);
      case 'clear-screen':
        this.shared.write('\x1b[H\x1b[2J\x1b[3J');
        this.shared.area.reset({ atTop: true });
        break;
      case 'up':
      case 'down':
        this.moveVertically(key.name, read);
        break;
      case 'tab':
        this.completeAtCursor(read);
        break;
      case 'reverse-search':
        if (read.message) this.startSearch(read);
        break;
      case 'edit-externally':
        if (read.message) return this.hooks.editExternally(read), 'finished';
        break;
      case 'ctrl-x':
        this.ctrlX = read.message;
        break;
      case 'toggle-output':
        if (read.onToggleOutput) read.above = read.onToggleOutput();
        break;
      case 'shift-tab':
        if (read.onShiftTab) ({ prompt: read.prompt, footer: read.footer } = read.onShiftTab());
        break;
      default:
        this.shared.edit(key, read.message);
    }
    return undefined;
  }

  private interrupt(read: ActiveRead): 'finished' | undefined {
    const hadText = this.shared.buffer.text !== '';
    if (!read.message) return this.finish(read, { kind: 'interrupt', hadText });
    const now = this.hooks.now();
    if (now - this.hooks.stoppedAt() < QUIT_AFTER_STOP_MS) return this.finish(read, { kind: 'interrupt', hadText: false });
    if (hadText) {
      this.shared.take();
      return undefined;
    }
    if (now - this.exitArmedAt < EXIT_CONFIRM_MS) return this.finish(read, { kind: 'interrupt', hadText: false });
    this.exitArmedAt = now;
    this.hints = [this.shared.dim('Press Ctrl-C again to exit')];
    return undefined;
  }

  private escape(read: ActiveRead): 'finished' | undefined {
    const empty = this.shared.buffer.text === '';
    // At a question Esc backs out like Ctrl-C; at the message prompt it only closes what is shown under it.
    if (!read.message) return this.finish(read, { kind: 'interrupt', hadText: !empty });
    // Twice at an empty prompt: /rewind, as if typed.
    if (empty && this.hooks.now() - this.rewindArmedAt < EXIT_CONFIRM_MS) return this.finish(read, { kind: 'line', line: '/rewind' });
    if (empty) {
      this.rewindArmedAt = this.hooks.now();
      this.hints = [this.shared.dim('Press Esc again to rewind (/rewind)')];
    }
    return undefined;
  }

  private startSearch(read: ActiveRead): void {
    this.searching = new HistorySearchMode(this.shared, this.searchMemory, {
      footer: () => (read.footer ? [this.footerRow(read.footer)] : []),
      done: () => (this.searching = undefined),
    });
  }

  private finish(read: ActiveRead, result: ReadResult): 'finished' {
    const shared = this.shared;
    this.hints = [];
    shared.buffer.cursor = shared.buffer.text.length;
    this.finishing = true;
    this.hooks.draw();
    this.finishing = false;
    shared.take(read.message);
    shared.area.leave();
    this.read = undefined;
    if (read.message && result.kind === 'line') shared.remember(result.line);
    if (!read.message) shared.unstash();
    read.resolve(result);
    return 'finished';
  }

  private moveVertically(direction: 'up' | 'down', read: ActiveRead): void {
    if (read.message && this.hints.length === 0 && this.scrollMenu(direction)) return;
    const shared = this.shared;
    const layout = shared.area.layout(this.content(read));
    const { row, column } = layout.cursor;
    const first = layout.places.get(0)!.row;
    const last = layout.places.get(shared.buffer.text.length)!.row;
    const target = direction === 'up' ? row - 1 : row + 1;
    if (target >= first && target <= last) {
      let best: number | undefined;
      for (const [index, place] of layout.places) {
        if (place.row !== target) continue;
        if (best === undefined || place.column <= column) best = index;
      }
      if (best !== undefined) shared.buffer.cursor = best;
      return;
    }
    if (!read.message) return;
    const next = shared.historyIndex + (direction === 'up' ? 1 : -1);
    if (next < -1 || next >= shared.history.length) return;
    if (shared.historyIndex === -1) shared.draft = shared.buffer.text;
    shared.historyIndex = next;
    const text = next === -1 ? shared.draft : shared.history[next]!;
    // Up lands at the end of the older entry; down at the start of its first line, to keep going down.
    shared.buffer.set(text, direction === 'up' || next === -1 ? text.length : 0);
  }

  /** The `/` menu's first row shown: back to the top once the text changed. */
  private menuStart(): number {
    const text = this.shared.buffer.text;
    if (this.menuText !== text) [this.menuText, this.menuFrom] = [text, 0];
    return this.menuFrom;
  }

  /** ↑/↓ while the `/` menu holds more than it shows: the window moves; false when it cannot. */
  private scrollMenu(direction: 'up' | 'down'): boolean {
    const total = this.completer?.count(this.shared.buffer.text) ?? 0;
    if (total <= MAX_SUGGESTIONS) return false;
    this.menuStart();
    const next = this.menuFrom + (direction === 'down' ? 1 : -1);
    if (next < 0 || next > total - MAX_SUGGESTIONS) return direction === 'down';
    this.menuFrom = next;
    return true;
  }

  private completeAtCursor(read: ActiveRead): void {
    const completer = this.completer;
    if (!completer || !read.message) return;
    const { buffer, area } = this.shared;
    const { text, cursor } = buffer;
    const held: Key[] = (this.held = []);
    const release = () => {
      if (this.held !== held) return;
      clearTimeout(timer);
      this.held = undefined;
      for (const key of held) this.hooks.dispatch(key);
    };
    const timer = setTimeout(release, HOLD_FOR_COMPLETION_MS);
    timer.unref();
    void completer
      .complete(text, cursor)
      .then((completion) => {
        if (!completion || this.read !== read || buffer.text !== text || buffer.cursor !== cursor) return;
        buffer.set(text.slice(0, completion.from) + completion.text + text.slice(completion.to), completion.from + completion.text.length);
        this.hints = completion.suggestions.map((suggestion) => area.suggestionRow(suggestion, false));
        this.hooks.draw();
      })
      .catch(() => {})
      .finally(release);
  }

  private content(read: ActiveRead) {
    const { buffer, display } = this.shared;
    return { prompt: read.prompt, text: buffer.text, cursor: buffer.cursor, display };
  }

  private footerRow(footer: string): string {
    return this.shared.dim(fitItems(sanitizeLine(footer), this.shared.area.columns() - 1));
  }

  /** The prompt, the text and the rows under it: hints, else the `/` menu, then the footer. */
  render(): AreaContent | undefined {
    const read = this.read;
    if (!read) return undefined;
    if (this.searching) return this.searching.render();
    const { buffer, area } = this.shared;
    const completer = this.completer;
    const below = this.finishing
      ? []
      : this.hints.length > 0 || !read.message || !completer
        ? [...this.hints]
        : menuRows(completer.suggest(buffer.text, buffer.cursor, this.menuStart()), area);
    if (read.footer && !this.finishing) below.push(this.footerRow(read.footer));
    return { ...this.content(read), above: read.above, below };
  }
}

/** The `/` menu's rows, the names in one column as wide as the longest (MCP prompts are long). */
function menuRows(suggestions: readonly Suggestion[], area: InputArea): string[] {
  const width = Math.max(12, ...suggestions.map((suggestion) => displayWidth(sanitizeLine(suggestion.label))));
  return suggestions.map((suggestion) => area.suggestionRow(suggestion, true, width));
}
