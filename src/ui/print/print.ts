import { exitCodeFor } from '../../agent/loop/events.ts';
import type { Config } from '../../config/config.ts';
import type { AgentSetup, ModelControl, ShellLines, TurnRunner } from '../../runtime/runtime.ts';
import type { ApprovalPolicy } from '../../agent/loop/turn-options.ts';
import type { ApprovalMode } from '../../tools/approval-mode.ts';
import { Approval } from '../../approval/approval-policy.ts';
import { printModeCannotAsk } from '../../approval/nobody-to-ask.ts';
import { CutOffWatch } from '../render/cut-off-notice.ts';
import { jsonEventLine } from './json-event-line.ts';
import { chalkFor, EventRenderer, type Output } from '../render/render.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';
import { findCommand, type LoadedCommands } from '../../prompt-files/custom-command.ts';
import type { CommandTurn } from '../state/command-turn.ts';
import { parsePromptCall } from '../../prompt-files/mcp-prompt-arguments.ts';

export interface PrintOptions {
  config: Config;
  prompt: string;
  /** One turn, the tools' specs and the MCP servers (approval, `/server:prompt`), the model's name and a custom command's shell lines. */
  runtime: TurnRunner & Pick<AgentSetup, 'mcp' | 'toolSpec'> & Pick<ModelControl, 'model'> & Pick<ShellLines, 'runShellLine'>;
  stdout: Output;
  stderr: Output;
  /** Aborted on Ctrl-C: the turn stops and the exit code is 130. */
  signal: AbortSignal;
  /** The custom commands read at start: a prompt `/name …` runs one. */
  customCommands?: LoadedCommands;
}

/**
 * `sylvan -p`: one turn. The answer goes to stdout, tool activity and the stop line to stderr
 * (with --json, every event as one JSON line on stdout). Resolves with the exit code:
 * 0 completed, 1 error, 3 stopped by a guard or a timeout, 130 interrupted.
 */
export async function runPrint(options: PrintOptions): Promise<number> {
  const { config, stdout, stderr } = options;
  const mode = config.approvalMode ?? 'ask';
  const approval = new Approval({
    specs: options.runtime.toolSpec,
    yes: config.yes,
    approvedAhead: options.runtime.mcp.approvedAhead,
    modes: { mode: () => mode, workspaceRoot: config.cwd },
    asker: printModeCannotAsk,
  });
  // An MCP prompt or a custom command that could not be sent has said why on stderr.
  const turn = await promptOrMessage(options, approval, mode);
  if (typeof turn === 'number') return turn;
  const renderer = new EventRenderer(stdout, stderr);
  // With --json the finish reason is in the turn-end event; stderr still says an answer was cut off.
  const cutOff = new CutOffWatch();
  let exitCode = 1;
  const request = { mode, images: turn.images, ...(turn.model !== undefined && { model: turn.model }) };
  for await (const event of options.runtime.runTurn(turn.send, options.signal, approval, request)) {
    if (config.json) {
      stdout.write(`${jsonEventLine(event, config.debug)}\n`);
      const notice = cutOff.see(event);
      if (notice) stderr.write(`${notice}\n`);
    } else {
      renderer.render(event);
    }
    if (event.type === 'turn-end') {
      exitCode = exitCodeFor(event.stopReason);
      if (config.json && event.message) stderr.write(`${sanitize(event.message)}\n`);
      if (event.debug && config.debug) stderr.write(`${sanitize(event.debug)}\n`);
    }
  }
  return exitCode;
}

/**
 * The prompt as given, or what a `/command` makes of it: `-p "/server:prompt args…"` runs that MCP
 * prompt and sends its text (shown on stderr; a missing argument or an unknown prompt exits 2, a
 * server failure 1); `-p "/review src/a.ts"` a custom command, its `!` lines asked of no one, so
 * run only with --yes (one not run exits 1). Each failure says why in one line.
 */
async function promptOrMessage(options: PrintOptions, approval: ApprovalPolicy, mode: ApprovalMode): Promise<CommandTurn | number> {
  const mcp = options.runtime.mcp;
  const call = options.prompt.startsWith('/') ? parsePromptCall(options.prompt, mcp.serverNames) : undefined;
  if (call) {
    const { promptPreview, runMcpPrompt } = await import('../commands/mcp-prompt-command.ts');
    const outcome = await runMcpPrompt(call, {
      mcp,
      waitMs: (options.config.mcpStartTimeoutSeconds ?? 10) * 1000,
      slow: (_label, work) => work(options.signal),
    });
    if (!outcome.ok) {
      options.stderr.write(`${sanitizeLine(outcome.message)}\n`);
      return outcome.cancelled ? 130 : outcome.usage ? 2 : 1;
    }
    for (const line of promptPreview(`/${call.server}:${call.prompt}`, outcome, (text) => text)) options.stderr.write(`${line}\n`);
    return { send: outcome.text };
  }
  return (await commandTurn(options, approval, mode)) ?? 1;
}

/** The prompt as given, or a custom command's (`sylvan -p "/review src/a.ts"`); undefined when it was not sent. */
async function commandTurn(options: PrintOptions, approval: ApprovalPolicy, mode: ApprovalMode): Promise<CommandTurn | undefined> {
  const name = /^\/(\S+)/.exec(options.prompt)?.[1];
  const command = name === undefined ? undefined : findCommand(options.customCommands, name.toLowerCase());
  // Why a command file was left out matters only to a prompt that may have meant one.
  if (name !== undefined) for (const note of options.customCommands?.notes ?? []) options.stderr.write(`${sanitizeLine(note)}\n`);
  if (!command) return { send: options.prompt };
  const { prepareCommandTurn } = await import('../state/command-turn.ts');
  return prepareCommandTurn(command, options.prompt.slice(name!.length + 1).trim(), {
    policy: approval,
    runtime: options.runtime,
    mode,
    cannotAsk: 'print mode cannot ask; rerun with --yes (or SYLVAN_YES=1) to allow it',
    interruptible: (work) => work(options.signal),
    workspaceRoot: options.config.cwd,
    secretPatterns: options.config.secretPatterns,
    provider: options.config.provider,
    model: options.runtime.model,
    print: (line) => options.stderr.write(`${line}\n`),
    colour: chalkFor(options.stderr),
  });
}
