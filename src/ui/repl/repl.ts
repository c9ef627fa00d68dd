import type { Runtime } from '../../runtime/runtime.ts';
import { chalkFor, formatUsage } from '../render/render.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';
import { wrapStyled, wrapToScreen } from '../../shared/text/display-width.ts';
import type { ReplState } from '../state/repl-state.ts';
import { nextApprovalMode } from '../../tools/approval-mode.ts';
import { modeFooter, promptFor } from '../render/mode-display.ts';
import { gitBranch } from '../status-line/branch-label.ts';
import { promptOutputToggle } from '../render/prompt-toggle.ts';
import { replStatusLine, type ReplStatusLine } from '../status-line/repl-status-line.ts';
import { buildReplState } from './build-repl-state.ts';
import { messageFor } from './repl-message.ts';
import type { ReplOptions } from './repl-options.ts';
import { runReplTurn, type TurnLoopState } from './repl-turn.ts';




/**
 * The interactive loop: prompt, run the turn, show it, repeat. Resolves with the exit code.
 * Ctrl-C (or Esc, from the editor) during a turn stops the turn and returns to the prompt; twice
 * within a second quits. At the prompt the reader reports an interrupt only when the user means to
 * quit (the terminal editor asks for a second Ctrl-C). Leaving a session with turns prints how to
 * resume it and its token totals.
 */
export async function runRepl(options: ReplOptions): Promise<number> {
  let state: ReplState | undefined;
  const status = replStatusLine(options.config, options.reader, options.output.isTTY === true, options.now ?? Date.now);
  let code: number;
  try {
    code = await runLoop(options, (loaded) => (state = loaded), status);
  } finally {
    status?.close();
  }
  const runtime = (state as ReplState | undefined)?.runtime;
  // How to come back, once there is something to come back to.
  if (options.reader.interactive && runtime && runtime.conversation.length > 0) {
    const dim = chalkFor(options.output).dim;
    options.output.write(`${dim(`Resume this session: sylvan --resume ${runtime.sessionId}`)}\n`);
    options.output.write(`${dim(`Session tokens: ${formatUsage(runtime.sessionUsage)}`)}\n`);
  }
  return code;
}

async function runLoop(options: ReplOptions, onState: (state: ReplState) => void, status: ReplStatusLine | undefined): Promise<number> {
  const { reader, output } = options;
  const now = options.now ?? Date.now;
  const colour = chalkFor(output);
  // On a terminal, long lines break between words, not where the terminal's edge falls.
  const print = (line = '') => {
    const width = output.isTTY && output.columns ? output.columns - 1 : 0;
    output.write(`${width > 0 ? line.split('\n').flatMap((row) => wrapToScreen(row, width)).join('\n') : line}\n`);
  };

  let runtimePromise: Promise<Runtime> | undefined;
  let state: ReplState | undefined;
  // The mode starts before the runtime loads: Shift+Tab works at the first prompt.
  const loop: TurnLoopState = { mode: options.config.approvalMode, planned: false, turnController: undefined, lastInterruptAt: Number.NEGATIVE_INFINITY };
  /** Waiting for the user's message: no turn is writing, so a server's failure can be told at once. */
  let atPrompt = false;
  // Read again at every prompt: a command the model ran may have switched the branch.
  const footer = () => {
    const text = modeFooter(loop.mode, loop.planned, gitBranch(options.config.cwd));
    return status?.footer(text) ?? text;
  };
  const getState = async (): Promise<ReplState> => {
    if (state) return state;
    const runtime = await (runtimePromise ??= options.loadRuntime());
    state = buildReplState(options, runtime, loop, { print, colour });
    onState(state);
    return state;
  };

  while (true) {
    status?.refresh(loop.mode, state?.runtime);
    const readPromise = reader.read(promptFor(loop.mode), {
      footer: footer(),
      onShiftTab: () => {
        loop.mode = nextApprovalMode(loop.mode);
        status?.refresh(loop.mode, state?.runtime);
        return { prompt: promptFor(loop.mode), footer: footer() };
      },
      onToggleOutput: promptOutputToggle(() => state?.lastToolCalls ?? [], colour, output),
    });
    // The SDK loads while the user types: nothing heavy happens before the prompt is drawn.
    if (!runtimePromise) {
      runtimePromise = options.loadRuntime();
      runtimePromise.then((runtime) => showWarningsAtPrompt(options, runtime, () => atPrompt), () => {});
    }
    atPrompt = true;
    const result = await readPromise;
    atPrompt = false;

    if (result.kind === 'eof') return 0;
    if (result.kind === 'interrupt') {
      if (result.hadText && now() - loop.lastInterruptAt > 1000) {
        loop.lastInterruptAt = now();
        continue;
      }
      return 0;
    }
    const line = result.line.trim();
    if (line === '') continue;
    options.rememberLine?.(line);
    if (line === 'exit' || line === 'quit') return 0;

    let current: ReplState;
    try {
      current = await getState();
    } catch (error) {
      print(colour.red(`✗ Could not start the model: ${sanitize((error as Error).message)}`));
      return 1;
    }
    const turn = await messageFor(line, current, options);
    if (turn === 'exit') return 0;
    if (turn && (await runReplTurn(options, current, loop, turn)) === 'quit') return 130;
  }
}

/**
 * A server that fails while the user types (a start that timed out) is told then, above the input,
 * not with the next turn: the warnings that come during a turn stay for that turn's notices.
 */
function showWarningsAtPrompt(options: ReplOptions, runtime: Runtime, atPrompt: () => boolean): void {
  const { reader, output } = options;
  const interject = reader.interject?.bind(reader);
  if (!interject) return;
  const colour = chalkFor(output);
  runtime.mcp?.onWarnings?.(() => {
    if (!atPrompt()) return;
    const width = output.columns ? output.columns - 1 : Number.POSITIVE_INFINITY;
    interject(runtime.mcp!.takeWarnings().flatMap((warning) => wrapStyled(sanitizeLine(warning), width).map((row) => colour.dim(row))));
  });
}
