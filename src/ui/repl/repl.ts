import type { Config } from '../../config/config.ts';
import { type StopReason, type TurnCost } from '../../agent/loop/events.ts';
import { emptyUsage } from '../../shared/token-usage.ts';
import type { Runtime, TurnRequest } from '../../runtime/runtime.ts';
import { Approval } from '../../approval/approval-policy.ts';
import { pipeCannotAsk } from '../../approval/nobody-to-ask.ts';
import { TerminalAsker } from '../approval/approval-prompt.ts';
import type { LineReader } from '../input/line-reader.ts';
import { EventRenderer, chalkFor, formatUsage, type Output } from '../render/render.ts';
import { runSlashCommand } from '../commands/slash-commands.ts';
import { attachResources, resourceMentions } from '../attachments/attach-resources.ts';
import { formatPreview } from '../approval/preview-view.ts';
import { sanitize, sanitizeLine } from '../../shared/sanitize.ts';
import { wrapStyled, wrapToScreen } from '../../shared/display-width.ts';
import type { TerminalRenderer } from '../render/terminal-renderer.ts';
import { ToolCallLog, trackToolEvent } from '../render/tool-calls.ts';
import { contextFill, turnCostText } from '../commands/usage-report.ts';
import type { ApprovalPolicy } from '../../agent/loop/turn-options.ts';
import type { ReplState } from '../state/repl-state.ts';
import { nextApprovalMode, type ApprovalMode } from '../../tools/approval-mode.ts';
import { modeFooter, modeTag, promptFor } from '../render/mode-display.ts';
import type { LoadedCommands } from '../../prompt-files/custom-command.ts';
import { gitBranch } from '../status-line/branch-label.ts';
import { startsWithExistingPath } from '../attachments/names-a-path.ts';
import { promptOutputToggle } from '../render/prompt-toggle.ts';
import { replStatusLine, type ReplStatusLine } from '../status-line/repl-status-line.ts';

export interface ReplOptions {
  config: Config;
  reader: LineReader;
  output: Output;
  /** Starts loading the runtime; called once, right after the first prompt is drawn. */
  loadRuntime: () => Promise<Runtime>;
  /** Subscribe to Ctrl-C while a turn runs (SIGINT); returns the unsubscribe. */
  onInterrupt: (handler: () => void) => () => void;
  /** Saves a line the user typed at the prompt (input history across runs). */
  rememberLine?: (line: string) => void;
  /** Input is a pipe, not a terminal: approvals are never read from it (denied unless --yes). */
  pipedInput?: boolean;
  /** The custom commands read at start: `/name` runs one. */
  customCommands?: LoadedCommands;
  /** Millisecond clock for "a second Ctrl-C within a second". */
  now?: () => number;
}

export { PROMPT } from '../render/mode-display.ts';

export type { ReplState } from '../state/repl-state.ts';

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
  let lastInterruptAt = Number.NEGATIVE_INFINITY;
  let turnController: AbortController | undefined;
  // Before the runtime loads: Shift+Tab works at the first prompt.
  let mode: ApprovalMode = options.config.approvalMode;
  /** The last turn ran in plan mode: out of it, the row under the prompt says how to carry the plan out. */
  let planned = false;
  /** Waiting for the user's message: no turn is writing, so a server's failure can be told at once. */
  let atPrompt = false;
  // A server that fails while the user types (a start that timed out) is told then, above the input,
  // not with the next turn: the warnings that come during a turn stay for that turn's notices.
  const showWarningsAtPrompt = (runtime: Runtime) => {
    const interject = reader.interject?.bind(reader);
    if (!interject) return;
    runtime.mcp?.onWarnings?.(() => {
      if (!atPrompt) return;
      const width = output.columns ? output.columns - 1 : Number.POSITIVE_INFINITY;
      interject(runtime.mcp!.takeWarnings().flatMap((warning) => wrapStyled(sanitizeLine(warning), width).map((row) => colour.dim(row))));
    });
  };
  // Read again at every prompt: a command the model ran may have switched the branch.
  const footer = () => status?.footer(modeFooter(mode, planned, gitBranch(options.config.cwd))) ?? modeFooter(mode, planned, gitBranch(options.config.cwd));

  const getState = async (): Promise<ReplState> => {
    if (state) return state;
    const runtime = await (runtimePromise ??= options.loadRuntime());
    const asker = new TerminalAsker({
      reader,
      show: async (description) => {
        if (description.preview) print(await formatPreview(description, colour));
      },
      describe: (request) => runtime.describeCall(request),
      onInterrupt: () => turnController?.abort(),
      network: {
        offered: (question) => question.kind === 'command' && runtime.sandbox.state.state === 'on' && !runtime.sandbox.state.network,
        grant: (request) => runtime.networkGrants.grant(request.toolCallId, request.input),
      },
    });
    // A pipe's next line is the user's next question, never an answer: the same policy, nobody to ask.
    const approval = new Approval({
      specs: runtime.toolSpec,
      yes: options.config.yes,
      approvedAhead: runtime.mcp.approvedAhead,
      modes: { mode: () => mode, workspaceRoot: options.config.cwd },
      asker: options.pipedInput ? pipeCannotAsk : asker,
    });
    state = {
      config: options.config,
      runtime,
      approval,
      customCommands: options.customCommands,
      ...(output.isTTY && { writeTerminal: (bytes: string) => output.write(bytes) }),
      interruptible: async (work) => {
        const controller = new AbortController();
        const unsubscribe = options.onInterrupt(() => controller.abort());
        try {
          return await work(controller.signal);
        } finally {
          unsubscribe();
        }
      },
      print,
      columns: () => (output.isTTY && output.columns ? output.columns : undefined),
      dim: colour.dim,
      colour,
      ask: async (question) => {
        const answer = await reader.read(question, { remember: false });
        return answer.kind === 'line' ? answer.line : undefined;
      },
      get mode() {
        return mode;
      },
      set mode(next: ApprovalMode) {
        mode = next;
      },
      thinking: 'whole',
      lastToolCalls: [],
      pick: reader.pick && ((request) => reader.pick!(request)),
      lendTerminal: reader.lendTerminal && ((work) => reader.lendTerminal!(work)),
      choose: reader.choose && ((question, choices) => reader.choose!(question, choices)),
      output,
      status: (label) => {
        let stopped = false;
        let live: import('../render/status.ts').LiveStatus | undefined;
        /** Output that came before the status module loaded, shown once it has. */
        let early = '';
        if (output.isTTY) {
          void import('../render/status.ts').then(({ LiveStatus }) => {
            if (stopped) return;
            live = new LiveStatus(output, colour, Date.now, () => undefined, reader.typeAhead);
            live.start(label);
            if (early !== '') live.showProgress(early);
          });
        }
        const stop = Object.assign(
          () => {
            stopped = true;
            live?.close();
          },
          {
            // Each report is the command's latest lines as a whole (run_command's LatestLines), not an addition.
            progress: (text: string) => {
              if (!live) early = text;
              else live.showProgress(text);
            },
          },
        );
        return stop;
      },
    };
    onState(state);
    return state;
  };

  while (true) {
    status?.refresh(mode, state?.runtime);
    const readPromise = reader.read(promptFor(mode), {
      footer: footer(),
      onShiftTab: () => {
        mode = nextApprovalMode(mode);
        status?.refresh(mode, state?.runtime);
        return { prompt: promptFor(mode), footer: footer() };
      },
      onToggleOutput: promptOutputToggle(() => state?.lastToolCalls ?? [], colour, output),
    });
    // The SDK loads while the user types: nothing heavy happens before the prompt is drawn.
    if (!runtimePromise) {
      runtimePromise = options.loadRuntime();
      runtimePromise.then((runtime) => showWarningsAtPrompt(runtime), () => {});
    }
    atPrompt = true;
    const result = await readPromise;
    atPrompt = false;

    if (result.kind === 'eof') return 0;
    if (result.kind === 'interrupt') {
      if (result.hadText && now() - lastInterruptAt > 1000) {
        lastInterruptAt = now();
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

    if (line.startsWith('!')) {
      const { runUserCommand } = await import('../commands/user-command.ts');
      await runUserCommand(line, current, { piped: options.pipedInput === true });
      continue;
    }

    // `# fact` on one line: remembered in an instruction file (asked which, then the write approval), not sent.
    if (line.startsWith('#') && !line.includes('\n') && line.slice(1).trim() !== '') {
      await (await import('../commands/memory-command.ts')).addMemory(line.slice(1), current);
      continue;
    }

    let message = line;
    let turnModel: string | undefined;
    let images: TurnRequest['images'];
    if (line.startsWith('/') && !(await startsWithExistingPath(line))) {
      const outcome = await runSlashCommand(line, current);
      if (outcome === 'exit') return 0;
      if (typeof outcome !== 'object') continue;
      // An MCP server's prompt or a custom command: its text is this turn's message (a custom command
      // attached its own @paths and ran its `!` lines; an @ in a prompt's text attaches nothing).
      message = outcome.send;
      turnModel = outcome.model;
      images = outcome.images;
    } else if (/(^|\s)@\S/.test(line) || /\.(?:png|jpe?g|gif|webp)\b/i.test(line)) {
      const prepared = await attachToMessage(line, current);
      if (!prepared) continue;
      ({ text: message, images } = prepared);
    }

    const controller = new AbortController();
    turnController = controller;
    let quit = false;
    const unsubscribe = options.onInterrupt(() => {
      if (now() - lastInterruptAt < 1000) quit = true;
      lastInterruptAt = now();
      controller.abort();
    });
    // The terminal renderer (and through it the markdown and highlighting libraries) loads on the first turn, not before the prompt.
    const live = output.isTTY
      ? new (await import('../render/terminal-renderer.ts')).TerminalRenderer(output, {
          thinking: () => current.thinking,
          statusTag: () => modeTag(mode),
          typeAhead: reader.typeAhead,
          expandable: reader.onToggleOutput !== undefined,
          earlierCalls: current.lastToolCalls,
          saveOutput: (record, text) => current.runtime.saveToolOutput(record, text),
        })
      : undefined;
    const stopToggling = reader.onToggleOutput?.(() => live?.toggleExpanded());
    const renderer = live ?? new EventRenderer(output, output);
    const toolCalls = live?.toolCalls ?? new ToolCallLog();
    current.lastToolCalls = toolCalls.records;
    live?.begin();
    let turnUsage = emptyUsage();
    let turnCost: TurnCost | undefined;
    let stopReason: StopReason | undefined;
    try {
      const policy = current.approval;
      const turnMode = mode;
      planned = turnMode === 'plan';
      const request = { mode: turnMode, images, ...(turnModel !== undefined && { model: turnModel }) };
      for await (const event of current.runtime.runTurn(message, controller.signal, live ? hidingLiveRows(policy, live) : policy, request)) {
        if (!live) trackToolEvent(toolCalls, event);
        await renderer.render(event);
        if (event.type === 'turn-end') {
          turnUsage = event.usage;
          turnCost = event.cost;
          stopReason = event.stopReason;
          if (event.debug && current.config.debug) print(colour.dim(sanitize(event.debug)));
        }
      }
    } finally {
      live?.close();
      unsubscribe();
      stopToggling?.();
      turnController = undefined;
      // A grant whose call never started (the turn was stopped first) must not reach a later call of the same id.
      current.runtime.networkGrants?.clear();
    }
    if (quit) return 130;
    // What was queued during the turn follows an answer that completed; after a stop or a failure it is the user's to send again.
    if (stopReason !== 'completed') reader.typeAhead?.takeBack();
    if (turnUsage.inputTokens + turnUsage.outputTokens > 0) {
      const context = contextFill(current.runtime);
      const money = turnCost ? ` · ${turnCostText(turnCost)}` : '';
      renderer.dimLine(`· ${formatUsage(turnUsage)}${money} · context ${context.percent}% of ${context.window}`);
    }
  }
}

/**
 * The message with what its `@path` and `@server:uri` words attach after it, and its pictures;
 * one line says what was attached, one line each what was not. Undefined: not to be sent yet.
 */
async function attachToMessage(line: string, state: ReplState): Promise<{ text: string; images: NonNullable<TurnRequest['images']> } | undefined> {
  const { config, runtime, colour } = state;
  const mentions = resourceMentions(line, runtime.mcp.serverNames);
  const resources =
    mentions.length > 0 && runtime.mcp
      ? await attachResources(mentions, runtime.mcp, (config.mcpStartTimeoutSeconds ?? 10) * 1000)
      : { blocks: '', problems: [], attached: [] };
  const { withAttachments } = await import('../attachments/message-attachments.ts');
  const prepared = await withAttachments(line, {
    workspaceRoot: config.cwd,
    secretPatterns: config.secretPatterns,
    notFiles: new Set(mentions.map((mention) => mention.word)),
    resources,
    model: runtime.model,
    provider: config.provider,
    print: state.print,
    colour,
  });
  return prepared && { text: prepared.text + resources.blocks, images: prepared.images };
}

/** The live rows (status, pending text) make way while the user is asked to approve a call. */
function hidingLiveRows(policy: ApprovalPolicy, live: TerminalRenderer): ApprovalPolicy {
  return {
    decide: (toolName, input) => policy.decide(toolName, input),
    async ask(request, signal) {
      live.suspend();
      try {
        return await policy.ask(request, signal);
      } finally {
        live.resume();
      }
    },
  };
}
