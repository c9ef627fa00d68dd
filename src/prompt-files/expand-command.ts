import { substituteArguments, takesArguments } from './command-arguments.ts';
import type { CustomCommand } from './custom-command.ts';

/** A line of a command's prompt that is only `` !`command` ``: the command's output takes its place. */
const SHELL_LINE = /^[ \t]*!`([^`\n]+)`[ \t]*$/;

type Part = { kind: 'text'; text: string } | { kind: 'shell'; command: string };

/** What expanding a command needs from its caller: the approval, the shell and `@path` attachments. */
export interface ExpansionSteps {
  /**
   * Runs one `` !`…` `` line's command once the user approved it (run_command's approval); resolves
   * with the text that replaces the line, or with why the command's prompt is not sent.
   */
  runShellLine(command: string): Promise<{ ok: true; output: string } | { ok: false; reason: string }>;
  /**
   * `@path` attachments of `text` (what the file and the user wrote, not what commands printed):
   * the blocks to append, or undefined when the prompt must not be sent (a picture it names
   * cannot be attached or seen; the step has said so).
   */
  attach(text: string): Promise<{ appended: string } | undefined>;
}

export type ExpandedCommand = { ok: true; prompt: string } | { ok: false; reason: string };

/**
 * The prompt a custom command sends: its body with the arguments put in (`$ARGUMENTS`, `$1`…`$9`;
 * a body with neither gets the arguments after it, past a blank line), each `` !`command` `` line
 * replaced by that command's output, in order, and then the `@path` files attached. The shell lines are
 * found before the arguments go in, so no argument can make a new one; commands run one after
 * another, and the first one not run stops the whole command (nothing is sent). Never throws
 * unless a step does.
 */
export async function expandCommand(command: CustomCommand, argumentText: string, steps: ExpansionSteps): Promise<ExpandedCommand> {
  const parts = splitBody(command.body).map((part): Part =>
    part.kind === 'text'
      ? { kind: 'text', text: substituteArguments(part.text, argumentText) }
      : { kind: 'shell', command: substituteArguments(part.command, argumentText) },
  );
  const extra = argumentText.trim();
  if (extra !== '' && !takesArguments(command.body)) parts.push({ kind: 'text', text: `\n${extra}` });
  const lines: string[] = [];
  for (const part of parts) {
    if (part.kind === 'text') {
      lines.push(part.text);
      continue;
    }
    const ran = await steps.runShellLine(part.command);
    if (!ran.ok) return { ok: false, reason: ran.reason };
    lines.push(shellBlock(part.command, ran.output));
  }
  // After the commands: a command that is not sent attaches nothing.
  const attached = await steps.attach(parts.map((part) => (part.kind === 'text' ? part.text : '')).join('\n'));
  if (!attached) return { ok: false, reason: 'a picture it names cannot go with it' };
  return { ok: true, prompt: `${lines.join('\n')}${attached.appended}` };
}

/** The body as text lines and shell lines, in order (consecutive text lines kept together). */
function splitBody(body: string): Array<{ kind: 'text'; text: string } | { kind: 'shell'; command: string }> {
  const parts: Part[] = [];
  for (const line of body.split('\n')) {
    const shell = SHELL_LINE.exec(line);
    const last = parts.at(-1);
    if (shell) parts.push({ kind: 'shell', command: shell[1]!.trim() });
    else if (last?.kind === 'text') last.text += `\n${line}`;
    else parts.push({ kind: 'text', text: line });
  }
  return parts;
}

/** A command's output in the prompt: fenced (longer than any run of backticks in it), under the command line. */
function shellBlock(command: string, output: string): string {
  const longest = Math.max(2, ...Array.from(output.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}console\n$ ${command}\n${output.replace(/\n$/, '')}\n${fence}`;
}
