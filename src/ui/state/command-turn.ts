import type { ChalkInstance } from 'chalk';
import type { CustomCommand } from '../../prompt-files/custom-command.ts';
import type { ImageAttachment } from '../../files/image-file.ts';
import type { ProviderName } from '../../config/config.ts';
import { shellLineRunner, type ShellLineContext } from './command-shell-lines.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** What the REPL (or print mode) sends for a custom command: the prompt, and the model for that turn. */
export interface CommandTurn {
  send: string;
  model?: string;
  /** Pictures the prompt named (`@shot.png`), for a model that sees them. */
  images?: readonly ImageAttachment[];
}

export interface CustomCommandContext extends Omit<ShellLineContext, 'label' | 'tell'> {
  workspaceRoot: string;
  secretPatterns: readonly string[];
  provider: ProviderName;
  /** The session's model now: the turn's unless the command names its own. */
  model: string;
  /** Writes one line for the user; `colour` styles it (plain off a terminal). */
  print: (line: string) => void;
  colour: ChalkInstance;
}

/**
 * Turns a custom command and what followed its name into the turn to send: `$ARGUMENTS` and `$1`…
 * `$9` put in, `` !`…` `` lines run after approval, and the `@path` files and pictures attached
 * as typed input attaches them (`withAttachments`). Resolves undefined, after saying why, when the
 * command is not sent.
 */
export async function prepareCommandTurn(command: CustomCommand, argument: string, context: CustomCommandContext): Promise<CommandTurn | undefined> {
  const [{ expandCommand }, { withAttachments }] = await Promise.all([import('../../prompt-files/expand-command.ts'), import('../attachments/message-attachments.ts')]);
  const note = (line: string) => context.print(context.colour.dim(`  ${line}`));
  const ownModel = command.model !== undefined && context.provider !== 'mock' ? command.model : undefined;
  note(sanitizeLine(`/${command.name} · ${command.file}${ownModel ? ` · model ${ownModel} for this turn` : ''}`));
  if (command.model !== undefined && !ownModel) note(sanitizeLine(`(the mock provider has one model: model ${command.model} is not used)`));
  let images: readonly ImageAttachment[] = [];
  const expanded = await expandCommand(command, argument, {
    runShellLine: shellLineRunner({ ...context, label: `/${command.name}`, tell: note }),
    attach: async (text) => {
      if (!/(^|\s)@\S/.test(text) && !/\.(?:png|jpe?g|gif|webp)\b/i.test(text)) return { appended: '' };
      const prepared = await withAttachments(text, { ...context, model: ownModel ?? context.model });
      if (!prepared) return undefined;
      images = prepared.images;
      return { appended: prepared.text.slice(text.length) };
    },
  });
  if (!expanded.ok) {
    context.print(context.colour.yellow(`  ✗ /${sanitizeLine(command.name)} was not sent: ${expanded.reason}`));
    return undefined;
  }
  return { send: expanded.prompt, ...(ownModel && { model: ownModel }), ...(images.length > 0 && { images }) };
}
