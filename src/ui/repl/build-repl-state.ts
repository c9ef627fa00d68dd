import { Approval } from '../../approval/approval-policy.ts';
import { pipeCannotAsk } from '../../approval/nobody-to-ask.ts';
import type { Runtime } from '../../runtime/runtime.ts';
import type { ApprovalMode } from '../../tools/approval-mode.ts';
import { TerminalAsker } from '../approval/approval-prompt.ts';
import { formatPreview } from '../approval/preview-view.ts';
import type { LineReader } from '../input/line-reader-contract.ts';
import type { Output } from '../render/render.ts';
import type { ReplState } from '../state/repl-state.ts';
import type { ReplOptions } from './repl-options.ts';

/** What the loop and the state it hands to commands change together. */
export interface LoopControls {
  /** The approval mode: Shift+Tab at the prompt and /mode change it. */
  mode: ApprovalMode;
  /** The turn running, if any: Ctrl-C at an approval question stops it. */
  turnController: AbortController | undefined;
}

/** The state commands and turns share, once the runtime has loaded: its approval policy asks at the terminal (or nobody, for a pipe). */
export function buildReplState(
  options: ReplOptions,
  runtime: Runtime,
  loop: LoopControls,
  view: { print: (line?: string) => void; colour: ReplState['colour'] },
): ReplState {
  const { reader, output } = options;
  const { print, colour } = view;
  const asker = new TerminalAsker({
    reader,
    show: async (description) => {
      if (description.preview) print(await formatPreview(description, colour));
    },
    describe: (request) => runtime.describeCall(request),
    onInterrupt: () => loop.turnController?.abort(),
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
    modes: { mode: () => loop.mode, workspaceRoot: options.config.cwd },
    asker: options.pipedInput ? pipeCannotAsk : asker,
  });
  return {
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
      return loop.mode;
    },
    set mode(next: ApprovalMode) {
      loop.mode = next;
    },
    thinking: 'whole',
    lastToolCalls: [],
    pick: reader.pick && ((request) => reader.pick!(request)),
    lendTerminal: reader.lendTerminal && ((work) => reader.lendTerminal!(work)),
    choose: reader.choose && ((question, choices) => reader.choose!(question, choices)),
    output,
    status: (label) => liveStatus(output, colour, reader, label),
  };
}

/** A spinner with a label (and a command's latest lines) while a command works, on a terminal only. */
function liveStatus(output: Output, colour: ReplState['colour'], reader: LineReader, label: string): ReturnType<ReplState['status']> {
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
  return Object.assign(
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
}
