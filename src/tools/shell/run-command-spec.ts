import type { ToolSpec } from '../tool-spec.ts';
import { commandScope } from './command-scope.ts';
import { RUN_COMMAND_LOOP_TIMEOUT_MS } from './command-timeouts.ts';

/** `run_command`: an "always" covers a command prefix (`npm test …`), never a compound line. */
export const runCommandSpec: ToolSpec<'run_command'> = {
  name: 'run_command',
  otherNames: ['Bash'],
  kind: 'command',
  scope: (input) => ({ kind: 'command', ...commandScope(input) }),
  describe: async (input, context) => {
    const { describeCommand } = await import('./run-command.ts');
    return describeCommand(context.workspaceRoot, input as import('./run-command.ts').RunCommandInput, context.fence);
  },
  checkpoint: 'command',
  timeoutMs: (configuredMs) => Math.max(RUN_COMMAND_LOOP_TIMEOUT_MS, configuredMs),
  display: 'command',
  // The result starts with how the command ended (command-result.ts): anything but exit code 0 failed.
  failed: (output) => typeof output === 'string' && !output.startsWith('exit code 0 '),
  guidance:
    'When the user wants something done in the workspace (run tests or a build, change part of a file, find where something is), do it with run_command, edit_file and search_files instead of telling them what to type; the user approves each command and edit.',
};
