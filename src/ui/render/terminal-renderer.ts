import type { ChalkInstance } from 'chalk';
import type { AgentEvent } from '../../agent/loop/events.ts';
import { cutToWidth, wrapStyled } from '../../shared/text/display-width.ts';
import { MarkdownStream } from './markdown/stream.ts';
import { pendingRows } from './markdown/pending-rows.ts';
import { supportsHyperlinks } from './markdown/render-blocks.ts';
import { CutOffWatch } from './cut-off-notice.ts';
import type { TypeAhead } from '../input/line-reader-contract.ts';
import { chalkFor, type Output } from './render.ts';
import { formatCall } from '../../shared/text/call-text.ts';
import { retryLine } from './retry-line.ts';
import { sanitize } from '../../shared/text/sanitize.ts';
import { forScreen, progressLines } from './screen-text.ts';
import { liveWidth } from './live-area.ts';
import { LiveStatus, PROGRESS_LINES } from './status.ts';
import { formatDuration, outputText, ToolCallLog, type ToolCallRecord } from './tool-calls.ts';
import { finishedCallLines } from './collapsed-view.ts';
import { expandedRows, expandRoom, isTooLongToShow } from './expanded-view.ts';
import { SubagentLines } from './subagent-lines.ts';
import { checklistRows, collapsedChecklist, LIVE_CHECKLIST_ROWS } from './todo-view.ts';
import type { TodoItem } from '../../tools/todo/todo-list.ts';

/** How reasoning is shown: streamed whole, or one line (`thought for 6s`) when it ends. */
export type ThinkingDisplay = 'whole' | 'summary';

export interface TerminalRendererOptions {
  thinking?: () => ThinkingDisplay;
  /** Named on the status line after the clock (the approval mode, when it is not the default). */
  statusTag?: () => string | undefined;
  /** What the user types during the turn, drawn under the status line. */
  typeAhead?: TypeAhead;
  now?: () => number;
  environment?: NodeJS.ProcessEnv;
  /** Ctrl+O can expand a result: a collapsed one says how many lines it hides and that the key shows them. */
  expandable?: boolean;
  /** The calls of the turn before: Ctrl+O shows the last of them until a call of this turn has finished. */
  earlierCalls?: readonly ToolCallRecord[];
  /** Keeps the whole output of a call too long for the screen; resolves with the file's path. */
  saveOutput?: (record: ToolCallRecord, text: string) => Promise<string>;
  /** The shortest time between two frames of the text being written (default FRAME_MS; 0: a frame for each chunk). */
  frameMs?: number;
}

const WAITING = 'Waiting for the model…';
const THINKING = 'Thinking…';
/** The block still being written is shown from its last lines only: what scrolled away cannot be erased. */
const PENDING_ROWS = 12;

/**
 * The REPL's renderer on a terminal: the answer's markdown rendered block by block as it streams,
 * a live status line while nothing else moves, reasoning dimmed and apart from the answer, one
 * line per tool call marked ✓ or ✗ with its duration. Everything from outside is sanitised first.
 * `render` is async (the markdown library loads on the first answer): await it in order.
 */
export class TerminalRenderer {
  readonly toolCalls: ToolCallLog;
  private readonly colour: ChalkInstance;
  private readonly status: LiveStatus;
  private readonly now: () => number;
  private readonly thinking: () => ThinkingDisplay;
  private readonly hyperlinks: boolean;
  private markdown: MarkdownStream | undefined;
  private reasoning: { startedAt: number; line: string; shownHeader: boolean } | undefined;
  /** Something lasting was printed this turn (so the next block is set apart by a blank line). */
  private printedAny = false;
  private lastKind: 'answer' | 'reasoning' | 'activity' | undefined;
  /**
   * The turn is over (turn-end) or the renderer closed: nothing may start the status line again. An
   * approval that settles after its turn was stopped, or a notice after turn-end, used to restart it,
   * and its timer then drew spinner frames over the prompt, or after the exit lines.
   */
  private ended = false;
  /** An approval question is on screen: a spinner must not draw over it. */
  private asking = false;
  /** Ctrl+O during the turn: the latest finished result is shown whole above the status line. */
  private expanded = false;
  private readonly cutOff = new CutOffWatch();
  /** The todo list the model wrote this turn: live above the status line, one line when the turn ends. */
  private todo: readonly TodoItem[] | undefined;
  private readonly subagents = new SubagentLines();
  private readonly expandable: boolean;
  private readonly saveOutput: TerminalRendererOptions['saveOutput'];
  private readonly earlierCalls: readonly ToolCallRecord[];

  constructor(
    private readonly output: Output,
    options: TerminalRendererOptions = {},
  ) {
    this.colour = chalkFor(output, options.environment);
    this.now = options.now ?? Date.now;
    this.thinking = options.thinking ?? (() => 'whole');
    this.hyperlinks = supportsHyperlinks(options.environment);
    this.status = new LiveStatus(output, this.colour, this.now, options.statusTag, options.typeAhead, options.frameMs);
    this.toolCalls = new ToolCallLog(this.now);
    this.expandable = options.expandable ?? false;
    this.saveOutput = options.saveOutput;
    this.earlierCalls = options.earlierCalls ?? [];
  }

  /** The turn has been sent: show that we are waiting for the first token. */
  begin(): void {
    this.showStatus(WAITING);
  }

  /** Hides the live rows while the user is asked something (an approval); nothing draws them until `resume`. */
  suspend(): void {
    this.asking = true;
    this.expanded = false;
    this.status.close();
  }

  /** The question was answered: the status line comes back (not once the turn is over). */
  resume(): void {
    this.asking = false;
    if (this.ended) return;
    this.showChecklist();
    const running = this.toolCalls.running;
    // A call's duration is its run, not the time the user took to answer.
    for (const record of running) record.startedAt = this.now();
    this.showStatus(running.length > 0 ? this.runningLabel() : WAITING);
  }

  async render(event: AgentEvent): Promise<void> {
    const cutOff = this.cutOff.see(event);
    if (cutOff) {
      await this.settle();
      this.printLines([this.colour.dim(cutOff)], 'activity');
    }
    switch (event.type) {
      case 'text-delta':
        if (event.text === '') return;
        await this.endReasoning();
        // The frame that shows the text hides the status line.
        if (this.status.running) this.status.stop(false);
        await this.writeAnswer(forScreen(event.text));
        return;
      case 'reasoning-delta':
        if (event.text === '') return;
        await this.writeReasoning(forScreen(event.text));
        return;
      case 'tool-call':
        await this.settle();
        this.toolCalls.start(event);
        this.showStatus(this.runningLabel());
        return;
      case 'tool-progress': {
        const lines = progressLines(event.text);
        this.status.showProgress(lines);
        // What the user saw last stays on screen if the call is stopped.
        const record = this.toolCalls.get(event.toolCallId);
        if (record) record.progress = lines.split('\n').filter((line) => line.trim() !== '').slice(-PROGRESS_LINES);
        return;
      }
      case 'subagent':
        // Each running subagent is one live line under the calls; its task call's finished line summarises it.
        if (this.subagents.see(event) && !this.ended && !this.asking) {
          this.status.showProgress(this.subagents.lines());
          if (this.expanded) this.showExpanded();
        }
        return;
      case 'retry':
        // The request is sent again after a wait: the status line counts it down, then waits for the model again.
        if (!this.ended && !this.asking) {
          this.status.countDown(event.delayMs, (left) => retryLine(event, left), `${WAITING} · retry ${event.attempt}/${event.maxRetries}`);
        }
        return;
      case 'todo':
        this.todo = event.items;
        if (!this.ended && !this.asking) this.showChecklist();
        return;
      case 'tool-result':
      case 'tool-error':
      case 'tool-denied': {
        await this.settle();
        const record = this.toolCalls.finish(event);
        const unsaved = await this.keepLongOutput(record);
        this.printLines(finishedCallLines(record, this.colour, this.width(), { expandable: this.expandable }), 'activity');
        if (unsaved) this.printLines([this.colour.dim(`    ${unsaved}`)], 'activity');
        if (this.expanded) this.showExpanded();
        this.showStatus(this.toolCalls.running.length > 0 ? this.runningLabel() : WAITING);
        return;
      }
      case 'notice': {
        await this.settle();
        const message = sanitize(event.message);
        this.printLines([this.colour.dim(message)], 'activity');
        // A notice that ends in "…" says work is under way (compacting): the status line says so until the next event.
        const underWay = /…\)?\s*$/.test(message);
        this.showStatus(underWay ? message.trim().replace(/^\((.*)\)$/, '$1') : WAITING);
        return;
      }
      case 'turn-end':
        this.ended = true;
        await this.settle();
        this.status.close();
        if (this.todo && this.todo.length > 0) this.printLines([this.colour.dim(collapsedChecklist(this.todo))], 'activity');
        // A command the stopped turn never settled (running while another call asked) ends on screen too, with what it showed.
        if (event.stopReason === 'aborted' || event.stopReason === 'timeout') {
          for (const record of this.toolCalls.running.filter((running) => running.progress !== undefined)) {
            this.toolCalls.stop(record, event.stopReason === 'aborted' ? 'interrupted' : 'timed-out');
            this.printLines(finishedCallLines(record, this.colour, this.width()), 'activity');
          }
        }
        if (event.stopReason !== 'completed' && event.message) {
          const colour = event.stopReason === 'error' ? this.colour.red : this.colour.yellow;
          this.printLines([colour(`${event.stopReason === 'error' ? '✗' : '■'} ${sanitize(event.message)}`)], 'activity');
        }
        return;
      default:
        return;
    }
  }

  /**
   * Ctrl+O during the turn: shows the latest finished result (of this turn, else of the one before)
   * whole above the status line, or hides it again. Nothing happens once the turn is over.
   */
  toggleExpanded(): void {
    if (this.ended) return;
    this.expanded = !this.expanded;
    if (this.expanded) this.showExpanded();
    else this.status.setAbove([]);
  }

  private showExpanded(): void {
    // The live room minus the status line and the subagents' own lines under it.
    const room = Math.max(4, expandRoom(this.rows()) - 1 - PROGRESS_LINES);
    if (this.subagents.size > 0) {
      this.status.setAbove(this.subagents.expandedRows(room).map((row) => this.colour.dim(cutToWidth(row, this.width()))));
      return;
    }
    const finished = (candidate: ToolCallRecord) => candidate.outcome !== undefined;
    const record = this.toolCalls.records.findLast(finished) ?? this.earlierCalls.findLast(finished);
    if (!record) {
      this.expanded = false;
      return;
    }
    // The live rows must fit the screen with the status line and a command's lines under it (the top gives way to an answer being written).
    this.status.setAbove(expandedRows(record, this.colour, this.width(), room));
  }

  /** Saves the output of a call too long for the screen (`savedAt`); returns a line to show when that failed. */
  private async keepLongOutput(record: ToolCallRecord): Promise<string | undefined> {
    if (!this.saveOutput || record.outcome?.kind !== 'result' || !isTooLongToShow(record, this.width(), expandRoom(this.rows()))) return undefined;
    try {
      record.savedAt = await this.saveOutput(record, outputText(record));
      return undefined;
    } catch (error) {
      return `(${sanitize(error instanceof Error ? error.message : String(error))}; /last prints it)`;
    }
  }

  /** A dimmed line (usage, hints) after the turn. */
  dimLine(text: string): void {
    this.status.close();
    this.output.write(`${this.colour.dim(text)}\n`);
  }

  /** Stops the clock and erases the live rows (also after an exception). */
  close(): void {
    this.ended = true;
    this.status.close();
  }

  private showChecklist(): void {
    this.status.setChecklist(this.todo ? checklistRows(this.todo, this.colour, this.width(), LIVE_CHECKLIST_ROWS) : []);
  }

  /** The status line, unless the turn is over or the user is being asked something. */
  private showStatus(label: string): void {
    if (!this.ended && !this.asking) this.status.start(label);
  }

  private async writeAnswer(text: string): Promise<void> {
    if (!this.markdown) {
      this.markdown = new MarkdownStream(() => ({ colour: this.colour, width: this.width(), hyperlinks: this.hyperlinks }));
      if (this.printedAny && this.lastKind !== 'answer') this.status.print('\n');
    }
    const lines = await this.markdown.push(text);
    if (lines.length > 0) this.printLines(lines, 'answer');
    this.showPending();
  }

  /** The live rows show what is being written as it stands when the next frame is drawn. */
  private showPending(): void {
    this.status.setPending(() => this.pendingRows());
  }

  private pendingRows(): string[] {
    const pending = this.markdown?.pending ?? '';
    if (pending !== '') return pendingRows(pending, this.width(), this.colour, PENDING_ROWS);
    const reasoningLine = this.reasoning && this.thinking() === 'whole' ? this.reasoning.line : '';
    return reasoningLine !== '' ? this.reasoningRows(reasoningLine).slice(-PENDING_ROWS) : [];
  }

  private async writeReasoning(text: string): Promise<void> {
    await this.endAnswer();
    if (!this.reasoning) {
      this.reasoning = { startedAt: this.now(), line: '', shownHeader: false };
      this.showStatus(THINKING);
    }
    const reasoning = this.reasoning;
    if (this.thinking() === 'summary') return;
    if (!reasoning.shownHeader) {
      reasoning.shownHeader = true;
      if (this.printedAny) this.status.print('\n');
      this.printLines([this.colour.dim('✻ thinking')], 'reasoning');
    }
    const parts = (reasoning.line + text).split('\n');
    reasoning.line = parts.pop() ?? '';
    // The live rows drawn after the print show the new unfinished line, never the printed one again.
    if (parts.length > 0) this.printLines(parts.flatMap((line) => this.reasoningRows(line)), 'reasoning');
    this.showPending();
  }

  /** A line of reasoning as terminal rows, each marked `┊` and dimmed. */
  private reasoningRows(line: string): string[] {
    return wrapStyled(line, Math.max(10, this.width() - 2)).map((row) => this.colour.dim('┊ ') + this.colour.dim.italic(row));
  }

  /** Finishes the reasoning shown so far: its last line, or its one-line summary. */
  private async endReasoning(): Promise<void> {
    const reasoning = this.reasoning;
    if (!reasoning) return;
    this.reasoning = undefined;
    const took = formatDuration(this.now() - reasoning.startedAt);
    this.status.setPending([]);
    if (this.thinking() === 'whole') {
      if (reasoning.line.trim() !== '') this.printLines(this.reasoningRows(reasoning.line), 'reasoning');
      if (!reasoning.shownHeader) return;
    }
    this.printLines([this.colour.dim(`✻ thought for ${took}`)], 'reasoning');
  }

  private async endAnswer(): Promise<void> {
    const markdown = this.markdown;
    if (!markdown) return;
    this.markdown = undefined;
    this.status.setPending([]);
    const lines = await markdown.end();
    if (lines.length > 0) this.printLines(lines, 'answer');
  }

  /** Ends the answer block and the reasoning before activity lines. */
  private async settle(): Promise<void> {
    await this.endReasoning();
    await this.endAnswer();
  }

  private printLines(lines: readonly string[], kind: 'answer' | 'reasoning' | 'activity'): void {
    // Activity after an answer (or an answer after activity) gets a blank line between.
    if (this.printedAny && kind === 'activity' && this.lastKind === 'answer') this.status.print('\n');
    this.status.print(lines.map((line) => `${line}\n`).join(''));
    this.printedAny = true;
    this.lastKind = kind;
  }

  private runningLabel(): string {
    const running = this.toolCalls.running;
    if (running.length === 1) return formatCall(running[0]!.toolName, running[0]!.input);
    return `running ${running.length} tools: ${running.map((record) => formatCall(record.toolName, undefined).replace(/\(\)$/, '')).join(', ')}`;
  }

  private width(): number {
    return Math.min(liveWidth(this.output), 199);
  }

  private rows(): number | undefined {
    return (this.output as { rows?: number }).rows;
  }
}
