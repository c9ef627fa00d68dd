import type { ChalkInstance } from 'chalk';
import type { LoadedCommands } from '../../prompt-files/custom-command.ts';
import type { Config } from '../../config/config.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { ApprovalMode } from '../../tools/approval-mode.ts';
import type { Approval } from '../../approval/approval-policy.ts';
import type { ChoiceResult, PickRequest } from '../input/line-reader-contract.ts';
import type { Choice } from '../input/line-reader-contract.ts';
import type { Output } from '../render/render.ts';
import type { ThinkingDisplay } from '../render/terminal-renderer.ts';
import type { ToolCallRecord } from '../render/tool-calls.ts';

// Here, not in repl.ts: the slash commands read this state, and the REPL imports the commands.

/** Stops the status line when called. */
export interface StatusLine {
  (): void;
  progress(text: string): void;
}

/** The REPL state a command reads, with only the part of the runtime it uses (so a test gives just that). */
export type CommandState<R> = Omit<ReplState, 'runtime'> & { runtime: R };

/** State the slash commands can read and change. */
export interface ReplState {
  config: Config;
  runtime: Runtime;
  /** The one approval policy, asking through the terminal (or nobody, reading a pipe): turns and a custom command's `!` lines follow it. */
  approval: Approval;
  /** The custom commands read at start (`.sylvan/commands/`, `$SYLVAN_HOME/commands/`). */
  customCommands?: LoadedCommands;
  /** Writes bytes to the terminal as they are; absent when the output is not a terminal (only /copy's OSC 52 uses it). */
  writeTerminal?: (bytes: string) => void;
  /** Runs slow work (a /compact) so that Ctrl-C stops it. */
  interruptible: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;
  print: (line?: string) => void;
  /** The terminal's width in columns, for what a command wraps itself (`/help`); undefined for a pipe. */
  columns: () => number | undefined;
  dim: (text: string) => string;
  /** Styles for what a command shows (off with NO_COLOR or a pipe). */
  colour: ChalkInstance;
  /** Asks a question on one line; undefined when the user backs out (Ctrl-C, Esc, Ctrl-D). */
  ask: (question: string) => Promise<string | undefined>;
  /** Reasoning streamed whole or as a one-line summary (/thinking). */
  thinking: ThinkingDisplay;
  /** The tool calls of the last turn, for /last. */
  lastToolCalls: readonly ToolCallRecord[];
  /**
   * Shows a live status line (on a terminal) until the returned function is called; its `progress`
   * shows a running command's latest lines under it, in place of those shown before (sanitised by
   * the caller).
   */
  status: (label: string) => StatusLine;
  /** The approval mode: read by the approval policy at every call and by each turn (plan mode's tools and instructions). */
  mode: ApprovalMode;
  /** A menu answered by one key, where the reader holds a terminal (see one-key-question.ts). */
  choose?: (question: string, choices: readonly Choice[]) => Promise<ChoiceResult>;
  /** Runs `work` (an editor) with the terminal lent to it, where the reader holds one. */
  lendTerminal?: <T>(work: () => Promise<T>) => Promise<T>;
  /** A list to choose from by typing a filter (the /resume picker), where the reader holds a terminal. */
  pick?: (request: PickRequest) => Promise<number | undefined>;
  /** Where the REPL writes: a command that redraws (the /resume transcript) needs its width. */
  output?: Output;
}
