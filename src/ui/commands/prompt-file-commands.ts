/** How custom commands are listed: in the `/` menu (from the first prompt on) and in /help. */
import type { CustomCommand, LoadedCommands } from '../../prompt-files/custom-command.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** How a command is listed: `/git:commit`, and its description with where it came from. Sanitised: it came from a file. */
export function commandSummaries(loaded: LoadedCommands | undefined): { name: string; summary: string }[] {
  return (loaded?.commands ?? []).map((command) => ({ name: `/${command.name}`, summary: sanitizeLine(`${command.description} (${origin(command)})`) }));
}

/** For /help: each custom command's usage (with its argument hint), description, source and file. Sanitised. */
export function commandHelpLines(loaded: LoadedCommands | undefined): { usage: string; summary: string }[] {
  return (loaded?.commands ?? []).map((command) => ({
    usage: sanitizeLine(`/${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}`),
    summary: sanitizeLine(`${command.description} (${origin(command)}: ${command.file})`),
  }));
}

const origin = (command: CustomCommand) => (command.overridesProject ? "user, over the project's" : command.source);
