import { exitCodeFor } from '../agent/events.ts';
import type { Config } from '../config.ts';
import type { Runtime } from '../runtime.ts';
import { nonInteractiveApproval } from './approval-prompt.ts';
import { CutOffWatch } from './cut-off-notice.ts';
import { jsonEventLine } from './json-event-line.ts';
import { EventRenderer, type Output } from './render.ts';
import { sanitize, sanitizeLine } from './sanitize.ts';
import { parsePromptCall } from '../commands/mcp-prompt-arguments.ts';

export interface PrintOptions {
  config: Config;
  prompt: string;
  runtime: Runtime;
  stdout: Output;
  stderr: Output;
  /** Aborted on Ctrl-C: the turn stops and the exit code is 130. */
  signal: AbortSignal;
}

/**
 * `sylvan -p`: one turn. The answer goes to stdout, tool activity and the stop line to stderr
 * (with --json, every event as one JSON line on stdout). Resolves with the exit code:
 * 0 completed, 1 error, 3 stopped by a guard or a timeout, 130 interrupted.
 */
export async function runPrint(options: PrintOptions): Promise<number> {
  const { config, stdout, stderr } = options;
  const mode = config.approvalMode ?? 'ask';
  const approval = nonInteractiveApproval(config.yes, options.runtime.mcp?.approvalScopes, options.runtime.mcp?.approvedAhead, {
    mode: () => mode,
    workspaceRoot: config.cwd,
  });
  const renderer = new EventRenderer(stdout, stderr);
  // With --json the finish reason is in the turn-end event; stderr still says an answer was cut off.
  const cutOff = new CutOffWatch();
  let exitCode = 1;
  const message = await promptOrMessage(options);
  if (typeof message === 'number') return message;
  for await (const event of options.runtime.runTurn(message, options.signal, approval, { mode })) {
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
 * `-p "/server:prompt args…"` runs that MCP prompt and sends its text (shown on stderr); a missing
 * argument or an unknown prompt exits 2, a server failure 1, with one line saying why.
 */
async function promptOrMessage(options: PrintOptions): Promise<string | number> {
  const mcp = options.runtime.mcp;
  const call = mcp && options.prompt.startsWith('/') ? parsePromptCall(options.prompt, mcp.serverNames) : undefined;
  if (!mcp || !call) return options.prompt;
  const { promptPreview, runMcpPrompt } = await import('./mcp-prompt-command.ts');
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
  return outcome.text;
}
