import type { ModelMessage } from 'ai';
import type { SessionControl } from '../../runtime/runtime.ts';
import type { CommandState } from '../state/repl-state.ts';
import { sanitize } from '../../shared/text/sanitize.ts';
import { digits } from '../../shared/text/count-text.ts';

/** Terminals cap what one OSC 52 may carry (xterm ~100 kB of base64, some far less): past this, say so instead. */
export const MAX_COPY_BYTES = 100_000;

/** The clipboard escape: `ESC ] 52 ; c ; <base64> BEL`. Sylvan's own, written only by /copy. */
export const osc52 = (text: string): string => `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;

/** The text of the answers since the last user message: what the last turn showed as its answer. */
export function lastAnswer(messages: readonly ModelMessage[]): string | undefined {
  const start = messages.findLastIndex((message) => message.role === 'user');
  const texts: string[] = [];
  for (const message of messages.slice(start + 1)) {
    if (message.role !== 'assistant') continue;
    const parts = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    for (const part of parts) if (part.type === 'text' && part.text.trim() !== '') texts.push(part.text.trim());
  }
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/**
 * `/copy`: the last answer onto the clipboard through the terminal (OSC 52), as the screen showed
 * it (control characters made visible, so nothing from the model acts when pasted). Only on a
 * terminal, and at most 100 kB; the user's own action, so the one place Sylvan writes OSC 52.
 */
export function copyCommand(state: CommandState<Pick<SessionControl, 'conversation'>>): void {
  const answer = lastAnswer(state.runtime.conversation.messages);
  if (answer === undefined) return state.print('  No answer to copy yet.');
  if (!state.writeTerminal) return state.print('  /copy needs a terminal: the output is not one. /export writes the session to a file.');
  const text = sanitize(answer);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_COPY_BYTES) {
    return state.print(`  The last answer is ${digits(Math.ceil(bytes / 1000))} kB; /copy sends at most ${MAX_COPY_BYTES / 1000} kB. /export writes the session to a file.`);
  }
  state.writeTerminal(osc52(text));
  state.print(`  Copied the last answer (${digits(text.length)} characters) to the clipboard.`);
  const tmux = process.env.TMUX ? ' In tmux it needs `set -g set-clipboard on`.' : '';
  state.print(state.dim(`  (Through the terminal, OSC 52: a terminal that does not allow it ignores it.${tmux})`));
}
