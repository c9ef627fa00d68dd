import type { TurnRequest } from '../../runtime/runtime.ts';
import { attachResources, resourceMentions } from '../attachments/attach-resources.ts';
import { startsWithExistingPath } from '../attachments/names-a-path.ts';
import { runSlashCommand } from '../commands/slash-commands.ts';
import type { ReplState } from '../state/repl-state.ts';

/** What a turn sends: the message, the model it asks for (a custom command's), its pictures. */
export interface TurnMessage {
  message: string;
  model?: string;
  images: TurnRequest['images'];
}

/**
 * A line typed at the prompt, as the next turn's message: `!command` runs at once, `# fact` is
 * remembered, `/command` runs (an MCP prompt or a custom command gives a message), `@path` words
 * attach. Undefined: nothing to send (the line was handled); 'exit': the session ends.
 */
export async function messageFor(line: string, current: ReplState, options: { pipedInput?: boolean }): Promise<TurnMessage | 'exit' | undefined> {
  if (line.startsWith('!')) {
    const { runUserCommand } = await import('../commands/user-command.ts');
    await runUserCommand(line, current, { piped: options.pipedInput === true });
    return undefined;
  }
  // `# fact` on one line: remembered in an instruction file (asked which, then the write approval), not sent.
  if (line.startsWith('#') && !line.includes('\n') && line.slice(1).trim() !== '') {
    await (await import('../commands/memory-command.ts')).addMemory(line.slice(1), current);
    return undefined;
  }
  if (line.startsWith('/') && !(await startsWithExistingPath(line))) {
    const outcome = await runSlashCommand(line, current);
    if (outcome === 'exit') return 'exit';
    if (typeof outcome !== 'object') return undefined;
    // An MCP server's prompt or a custom command: its text is this turn's message (a custom command
    // attached its own @paths and ran its `!` lines; an @ in a prompt's text attaches nothing).
    return { message: outcome.send, model: outcome.model, images: outcome.images };
  }
  if (/(^|\s)@\S/.test(line) || /\.(?:png|jpe?g|gif|webp)\b/i.test(line)) {
    const prepared = await attachToMessage(line, current);
    return prepared && { message: prepared.text, images: prepared.images };
  }
  return { message: line, images: undefined };
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
