import { argumentSummary, parsePromptArguments, type PromptCall } from '../../prompt-files/mcp-prompt-arguments.ts';
import type { RuntimeMcp } from '../../mcp/runtime-mcp.ts';
import type { ReplState } from '../state/repl-state.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { digits } from '../../shared/text/count-text.ts';

/** Lines of a prompt's text shown before it is sent; the rest is sent, not shown. */
const SHOWN_LINES = 10;

export interface PromptHost {
  mcp: RuntimeMcp;
  /** How long a server that is still starting is waited for. */
  waitMs: number;
  /** Asks for one argument on one line; undefined when the user backs out. Absent (print mode): a missing argument is an error. */
  ask?: (question: string) => Promise<string | undefined>;
  /** Runs slow work (waiting for a server, `prompts/get`) under a status line that Ctrl-C can stop; plain in print mode. */
  slow?: <T>(label: string, work: (signal?: AbortSignal) => Promise<T>) => Promise<T>;
}

export type PromptOutcome =
  | { ok: true; text: string; skipped: string[] }
  /** `usage`: the command was wrong (print mode exits 2), else the server failed (exit 1); `cancelled`: the user backed out. */
  | { ok: false; message: string; usage?: boolean; cancelled?: boolean };

/**
 * `/server:prompt args…`: finds the prompt (waiting, bounded, for a server still starting), fills its
 * arguments (asking for missing required ones when it can), runs `prompts/get`. The text returned
 * is the user's next message: it runs nothing by itself, the model's calls still ask. Never throws;
 * the message of a failure is raw (sanitise before showing).
 */
export async function runMcpPrompt(call: PromptCall, host: PromptHost): Promise<PromptOutcome> {
  const command = `/${call.server}:${call.prompt}`;
  const slow = host.slow ?? ((_label, work) => work());
  const status = () => host.mcp.summaries().find((summary) => summary.name === call.server);
  const before = status();
  // Ready with its tools is not yet listed: its prompts may be a moment behind.
  const waiting = before?.status === 'starting' || (before?.status === 'ready' && !before.listed);
  if (waiting) await slow(`Waiting for the MCP server ${sanitizeLine(call.server)}…`, () => host.mcp.settled(host.waitMs));
  const server = status();
  if (server?.status !== 'ready') {
    const state = server?.status === 'starting' ? 'is still starting' : `is not running (${server?.status ?? 'unknown'}${server?.lastError ? `: ${server.lastError}` : ''})`;
    return { ok: false, message: `The MCP server ${call.server} ${state}. /mcp shows more.` };
  }
  const prompts = host.mcp.prompts().filter((entry) => entry.server === call.server).map((entry) => entry.prompt);
  const prompt = prompts.find((candidate) => candidate.name === call.prompt);
  if (!prompt) {
    if (prompts.length === 0 && !server.listed) return { ok: false, message: `The MCP server ${call.server} has not listed its prompts yet. /mcp shows more.` };
    const failed = server.listProblems.find((problem) => problem.startsWith('prompts/'));
    if (prompts.length === 0 && failed) return { ok: false, message: `The MCP server ${call.server} could not list its prompts (${failed}). /mcp shows more.` };
    const offered = prompts.length === 0 ? 'offers no prompts' : `has no prompt ${call.prompt}. Its prompts: ${prompts.map((entry) => entry.name).join(', ')}`;
    return { ok: false, usage: true, message: `The MCP server ${call.server} ${offered}.` };
  }
  const parsed = parsePromptArguments(call.argumentText, prompt);
  if (!parsed.ok) return { ok: false, usage: true, message: `/${call.server}:${parsed.message}` };
  const values = { ...parsed.values };
  for (const missing of parsed.missing) {
    const about = missing.description ? ` (${missing.description})` : '';
    if (!host.ask) return { ok: false, usage: true, message: `${command} needs ${missing.name}${about}: ${command} ${argumentSummary(prompt)}` };
    const answer = (await host.ask(`  ${sanitizeLine(missing.name)}${sanitizeLine(about)}: `))?.trim();
    if (!answer) return { ok: false, cancelled: true, message: `${command} not run: it needs ${missing.name}.` };
    values[missing.name] = answer;
  }
  try {
    const turn = await slow(`Running ${sanitizeLine(command)}…`, (signal) => host.mcp.getPrompt(call.server, call.prompt, values, signal));
    if (turn.text.trim() === '') return { ok: false, message: `${command} gave no text to send${turn.skipped.length > 0 ? ` (only ${turn.skipped.join(', ')})` : ''}.` };
    return { ok: true, text: turn.text, skipped: turn.skipped };
  } catch (error) {
    if ((error as Error).name === 'AbortError') return { ok: false, cancelled: true, message: `${command} stopped.` };
    return { ok: false, message: `${command} failed: ${(error as Error).message}` };
  }
}

/**
 * What the user sees of a prompt before it is sent: where it came from and its first lines,
 * sanitised (it is a server's text), then what was left out of it. Styled by the caller's `dim`.
 */
export function promptPreview(command: string, outcome: { text: string; skipped: string[] }, dim: (text: string) => string): string[] {
  const lines = outcome.text.split('\n');
  const shown = lines.slice(0, SHOWN_LINES).map((line) => dim(`  │ ${sanitizeLine(line)}`));
  const more = lines.length - SHOWN_LINES;
  return [
    dim(`  ${sanitizeLine(command)} · the MCP server's prompt, sent as your message:`),
    ...shown,
    ...(more > 0 ? [dim(`  │ … ${digits(more)} more line${more === 1 ? '' : 's'}, sent too`)] : []),
    ...outcome.skipped.map((part) => dim(`  (not sent: ${sanitizeLine(part)})`)),
  ];
}

/**
 * The REPL's `/server:prompt`: runs it, shows it (or why not), and gives the text to send as the
 * user's message, or undefined when there is nothing to send.
 */
export async function promptMessage(call: PromptCall, state: ReplState): Promise<string | undefined> {
  const mcp = state.runtime.mcp;
  const outcome = await runMcpPrompt(call, {
    mcp,
    waitMs: (state.config.mcpStartTimeoutSeconds ?? 10) * 1000,
    ask: state.ask,
    slow: (label, work) => {
      const stop = state.status(label);
      return state.interruptible(work).finally(stop);
    },
  });
  if (!outcome.ok) {
    state.print(outcome.cancelled ? state.dim(`  ${sanitizeLine(outcome.message)}`) : state.colour.yellow(`  ${sanitizeLine(outcome.message)}`));
    return undefined;
  }
  for (const line of promptPreview(`/${call.server}:${call.prompt}`, outcome, state.dim)) state.print(line);
  return outcome.text;
}
