import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandTurn } from '../state/command-turn.ts';
import type { CommandState } from '../state/repl-state.ts';

const EXPLORE =
  'Explore this project with the read-only tools first (list_files, read_file, search_files): the README, the build and package files, the test set-up, the source layout, any CONTRIBUTING or style guide. Do not run commands and do not change any other file.';
const CONTENT =
  'AGENTS.md is read by coding agents at the start of every conversation, so keep it short (under about 80 lines) and specific to this project: how to install, build, test and lint (exact commands); the layout (which folder holds what); the conventions a newcomer would get wrong; anything to never do. No generic advice.';

/** The request `/init` sends: write `AGENTS.md`, or propose changes to the one there as an edit. */
function initPrompt(exists: boolean): string {
  return exists
    ? `${EXPLORE}\n\nThis project already has an AGENTS.md: read it, then propose improvements to it with edit_file (what is missing, wrong or out of date), keeping what is right. ${CONTENT}`
    : `${EXPLORE}\n\nThen write AGENTS.md at the workspace root with write_file. ${CONTENT}`;
}

/**
 * `/init`: a turn asking the model to explore and write `AGENTS.md` (or edit the one there). Its
 * write goes through the approval and checkpoints every write does; the file is in the system
 * prompt from the next session (or after /memory reload).
 */
export function initCommand(state: CommandState<unknown>): CommandTurn {
  const exists = existsSync(join(state.config.cwd, 'AGENTS.md'));
  state.print(state.dim(exists ? '  /init · the model reads the project and proposes changes to AGENTS.md' : '  /init · the model reads the project and writes AGENTS.md'));
  return { send: initPrompt(exists) };
}
