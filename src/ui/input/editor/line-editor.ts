import type { Choice, ChoiceResult, LineReader, PickRequest, ReadOptions, ReadResult, TypeAhead } from '../line-reader-contract.ts';
import { sanitize } from '../../../shared/text/sanitize.ts';
import type { Completer } from '../completion.ts';
import { KeyDecoder } from '../keys.ts';
import { enterEditingMode, withEntersTypedBeforeRawMode } from '../terminal-modes.ts';
import { ChoiceMode } from '../modes/choice-mode.ts';
import type { KeyMode } from '../modes/key-mode.ts';
import { lendToEditor } from '../modes/lend-to-editor.ts';
import { PickMode } from '../modes/pick-mode.ts';
import { PromptMode, type ActiveRead } from '../modes/prompt-mode.ts';
import { SharedInput } from '../modes/shared-input.ts';
import { TypeAheadMode } from '../modes/type-ahead-mode.ts';

export interface LineEditorOptions {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Earlier input, newest first. */
  history: string[];
  completer?: Completer;
  dim?: (text: string) => string;
  now?: () => number;
}

/**
 * The terminal line editor. It holds the terminal in raw mode from creation to close, so keys typed
 * while a turn runs are never echoed into the answer: they are edited in the same buffer, shown by
 * whoever draws the live rows (`typeAhead`), and each line sent with Enter waits as the next
 * message (Ctrl-D then ends the session after the turn), or goes back into the input if the turn
 * is stopped. Ctrl-C and Esc while a turn runs reach `onInterrupt` listeners, Ctrl+O
 * `onToggleOutput` listeners.
 *
 * Each key goes to one key mode (modes/): a picker, else a one-key menu, else the prompt being
 * answered, else typing during a turn. The editor owns what they share and draws the mode on top.
 */
export class LineEditor implements LineReader {
  readonly interactive = true;
  private readonly shared: SharedInput;
  private readonly decoder = new KeyDecoder();
  private readonly duringTurn: TypeAheadMode;
  private readonly prompt: PromptMode;
  private choosing: ChoiceMode | undefined;
  private picking: PickMode | undefined;
  private readonly restore: () => void;
  /** The terminal is lent to an editor (Ctrl-G): keys are its, not ours. */
  private lending = false;
  /** The last message prompt shown: type-ahead is drawn under the same one. */
  private messagePrompt = '› ';
  private closed = false;
  /** The terminal hung up: its input ended or failed, or SIGHUP came. */
  hungUp = false;
  /** No input read yet: the first chunk may hold lines typed before raw mode. */
  private firstChunk = true;

  constructor(private readonly options: LineEditorOptions) {
    const now = options.now ?? Date.now;
    this.shared = new SharedInput(options.output, options.dim ?? ((text) => text), options.history);
    this.duringTurn = new TypeAheadMode(this.shared, now);
    this.prompt = new PromptMode(this.shared, options.completer, {
      now,
      stoppedAt: () => this.duringTurn.stoppedAt,
      draw: () => this.draw(),
      editExternally: (read) => void this.editExternally(read),
      dispatch: (key) => void (this.shown() ?? this.duringTurn).handle(key),
    });
    this.restore = enterEditingMode(options.input, options.output);
    options.input.setEncoding('utf8');
    options.input.on('data', this.onData);
    options.input.on('end', this.hangUp);
    options.input.on('error', this.hangUp);
    options.output.on('resize', this.onResize);
    process.on('SIGINT', this.onSigint);
    options.input.resume();
  }

  get history(): readonly string[] {
    return this.shared.history;
  }

  readonly typeAhead: TypeAhead = {
    view: (columns) => (this.prompt.read || this.choosing || this.closed ? { rows: [] } : this.duringTurn.view(columns, this.messagePrompt)),
    watch: (changed) => this.duringTurn.queue.watch(changed),
    takeBack: () => this.duringTurn.takeBack(),
  };

  /** Ctrl-C or Esc while no message is being typed (a turn runs). Returns the unsubscribe. */
  onInterrupt(handler: () => void): () => void {
    const listeners = this.duringTurn.interruptListeners;
    listeners.add(handler);
    return () => listeners.delete(handler);
  }

  /** Ctrl+O while no message is being typed (a turn runs). Returns the unsubscribe. */
  onToggleOutput(handler: () => void): () => void {
    const listeners = this.duringTurn.toggleOutputListeners;
    listeners.add(handler);
    return () => listeners.delete(handler);
  }

  read(prompt: string, options: ReadOptions = {}): Promise<ReadResult> {
    // Nobody is there to see a line typed ahead run.
    if (this.hungUp) return Promise.resolve({ kind: 'eof' });
    const message = options.remember !== false;
    if (message) {
      this.messagePrompt = prompt;
      const queued = this.duringTurn.queue.shift();
      if (queued?.kind === 'eof') return Promise.resolve(queued);
      if (queued) {
        const line = this.shared.pastes.expand(queued.text);
        this.shared.write(`${prompt}${sanitize(line)}${this.shared.dim('  · queued')}\n`);
        this.shared.remember(line);
        return Promise.resolve({ kind: 'line', line });
      }
    } else {
      this.shared.stash();
    }
    if (this.closed) return Promise.resolve({ kind: 'eof' });
    return new Promise((resolve) => {
      this.prompt.start({
        prompt,
        message,
        resolve,
        ...(message && { footer: options.footer, onShiftTab: options.onShiftTab, onToggleOutput: options.onToggleOutput }),
      });
    });
  }

  setFooter(footer: string): void {
    if (this.prompt.setFooter(footer) && !this.choosing) this.draw();
  }

  /**
   * A menu answered by one key without Enter: a choice's key (or its number) picks it at once,
   * ↑/↓ move the mark and Enter picks the marked one; Esc, Ctrl-C and Ctrl-D come back as such.
   * The message being typed (if any) waits, as for a question.
   */
  choose(question: string, choices: readonly Choice[]): Promise<ChoiceResult> {
    if (this.closed) return Promise.resolve({ kind: 'eof' });
    this.shared.stash();
    return new Promise((resolve) => {
      this.choosing = new ChoiceMode(this.shared, question, choices, resolve, this.modeHooks(() => (this.choosing = undefined)));
      this.shared.area.reset();
      this.draw();
    });
  }

  /**
   * Lines printed above the input while the user types (an MCP server that failed meanwhile), the
   * input drawn again under them as it was.
   */
  interject(lines: readonly string[]): void {
    if (this.closed || lines.length === 0) return;
    const drawn = this.shown() !== undefined;
    if (drawn) this.shared.area.erase();
    this.shared.write(lines.map((line) => `${line}\n`).join(''));
    if (drawn) this.draw();
  }

  /** A list narrowed as the user types (the session picker); see `LineReader.pick`. */
  pick(request: PickRequest): Promise<number | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    this.shared.stash();
    return new Promise((resolve) => {
      this.picking = new PickMode(this.shared, request, resolve, this.modeHooks(() => (this.picking = undefined)));
      this.shared.area.reset();
      this.draw();
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.options.input.off('data', this.onData);
    this.options.input.off('end', this.hangUp);
    this.options.input.off('error', this.hangUp);
    this.options.output.off('resize', this.onResize);
    process.off('SIGINT', this.onSigint);
    this.options.input.pause();
    this.restore();
    this.prompt.read?.resolve({ kind: 'eof' });
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
    for (const key of this.decoder.decode(text)) (this.shown() ?? this.duringTurn).handle(key);
  };

  private readonly onSigint = () => this.onData('\x03');

  /**
   * The terminal is gone (a closed window, a dropped ssh). In raw mode Ctrl-D is a key, so the end of
   * the input is a hang-up, as SIGHUP is: a running turn is stopped, and what waits for a key ends as
   * at Ctrl-D, so the REPL leaves by its own way out.
   */
  readonly hangUp = (): void => {
    if (this.closed) return;
    this.hungUp = true;
    for (const interrupt of this.duringTurn.interruptListeners) interrupt();
    this.close();
  };

  private readonly onResize = () => {
    if (!this.shown()) return;
    this.shared.area.resized();
    this.draw();
  };

  /** The mode the input area shows, on top of any other: none while a turn runs. */
  private shown(): KeyMode | undefined {
    return this.picking ?? this.choosing ?? (this.prompt.read ? this.prompt : undefined);
  }

  private modeHooks(done: () => void) {
    return { draw: () => this.draw(), done };
  }

  private editExternally(read: ActiveRead): Promise<void> {
    return lendToEditor(this.shared, this.options, {
      lending: (on) => (this.lending = on),
      closed: () => this.closed,
      stillReading: () => this.prompt.read === read,
      draw: () => this.draw(),
    });
  }

  /** Redraws the prompt, the text and the rows under it in place, the cursor where it belongs. */
  private draw(): void {
    const content = this.shown()?.render();
    if (content) this.shared.area.draw(content);
  }
}
