import type { CustomCommand } from '../commands/custom-command.ts';
import type { ProviderName } from '../config.ts';
import { shellLineRunner, type ShellLineContext } from './command-shell-lines.ts';
import { sanitizeLine } from './sanitize.ts';

/** What the REPL (or print mode) sends for a custom command: the prompt, and the model for that turn. */
export interface CommandTurn {
  send: string;
  model?: string;
}

export interface CustomCommandContext extends Omit<ShellLineContext, 'label' | 'tell'> {
  workspaceRoot: string;
  secretPatterns: readonly string[];
  provider: ProviderName;
  /** A dimmed line of what happens. */
  note: (line: string) => void;
  /** A line about something that did not work. */
  warn: (line: string) => void;
}

/**
 * Turns a custom command and what followed its name into the turn to send: `$ARGUMENTS` and `$1`…
 * `$9` put in, `@path` files attached as typed input attaches them, `` !`…` `` lines run after
 * approval. Resolves undefined, after saying why, when the command is not sent.
 */
export async function prepareCommandTurn(command: CustomCommand, argument: string, context: CustomCommandContext): Promise<CommandTurn | undefined> {
  const [{ expandCommand }, { attachFiles }] = await Promise.all([import('../commands/expand-command.ts'), import('./input/attach-files.ts')]);
  const mockModel = command.model !== undefined && context.provider === 'mock';
  context.note(sanitizeLine(`/${command.name} · ${command.file}${command.model && !mockModel ? ` · model ${command.model} for this turn` : ''}`));
  if (mockModel) context.note(sanitizeLine(`(the mock provider has one model: model ${command.model} is not used)`));
  const expanded = await expandCommand(command, argument, {
    runShellLine: shellLineRunner({ ...context, label: `/${command.name}`, tell: context.note }),
    attach: async (text) => {
      if (!/(^|\s)@\S/.test(text)) return { appended: '' };
      const attached = await attachFiles(text, { workspaceRoot: context.workspaceRoot, secretPatterns: context.secretPatterns });
      for (const problem of attached.problems) context.warn(sanitizeLine(problem));
      if (attached.files.length > 0) context.note(`attached ${attached.files.map(sanitizeLine).join(', ')}`);
      return { appended: attached.message.slice(text.length) };
    },
  });
  if (!expanded.ok) {
    context.warn(`✗ /${sanitizeLine(command.name)} was not sent: ${expanded.reason}`);
    return undefined;
  }
  return { send: expanded.prompt, ...(command.model && !mockModel && { model: command.model }) };
}
