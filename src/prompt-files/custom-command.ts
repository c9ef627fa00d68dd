/** Where a custom command came from: the workspace's `.sylvan/commands/` or `$SYLVAN_HOME/commands/`. */
export type CommandSource = 'project' | 'user';

/** One custom command, read from a Markdown file: its front matter and the prompt it sends. */
export interface CustomCommand {
  /** Without the slash: `review`, or `git:commit` for `git/commit.md`. */
  name: string;
  source: CommandSource;
  /** The file as the user knows it: `.sylvan/commands/review.md`, `$SYLVAN_HOME/commands/review.md`. */
  file: string;
  /** The front matter's `description`, else the prompt's first line. From a file: sanitise before showing. */
  description: string;
  /** The front matter's `argument-hint`, e.g. `[file]`. */
  argumentHint?: string;
  /** The front matter's `model`: the model the command's turn uses (that turn only, same provider). */
  model?: string;
  /** The prompt template: `$ARGUMENTS`, `$1`…`$9`, `@path` and `` !`command` `` lines in it. */
  body: string;
  /** A user command that takes the place of the project's command of the same name. */
  overridesProject?: true;
}

/** The custom commands found at start, and one line each for the files that were not used. */
export interface LoadedCommands {
  commands: readonly CustomCommand[];
  notes: readonly string[];
}

/** The command named `name` (without the slash), if any. */
export function findCommand(loaded: LoadedCommands | undefined, name: string): CustomCommand | undefined {
  return loaded?.commands.find((command) => command.name === name);
}
