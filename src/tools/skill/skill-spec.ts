import type { ToolSpec } from '../tool-spec.ts';

/** `skill`: reads a skill's instructions and lists its files; changes nothing, so it is never asked about. */
export const skillSpec: ToolSpec<'skill'> = {
  name: 'skill',
  kind: 'read',
  guidance:
    'A skill\'s files (scripts, references) are read with read_file at the absolute paths the skill tool gives, even outside the workspace; a script a skill names runs only through run_command, asked about like any other command.',
};
