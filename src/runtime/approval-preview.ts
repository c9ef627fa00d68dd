import type { ApprovalRequest } from '../agent/turn-options.ts';
import type { Config } from '../config/config.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';
import { describeEdit, type EditFileInput } from '../tools/files/edit-file.ts';
import { describeWrite, type WriteFileInput } from '../tools/files/write-file.ts';
import { describeCommand, type RunCommandInput } from '../tools/shell/run-command.ts';
import { formatCall } from '../ui/render.ts';
import type { CallPreview } from './runtime.ts';

/** What the user sees before approving a call: a summary line and a preview. */
export function approvalPreview(config: Config, sandbox: CommandSandbox): CallPreview['describeCall'] {
  return async (request: ApprovalRequest) => {
    switch (request.toolName) {
      case 'write_file':
        return describeWrite(config.cwd, request.input as WriteFileInput, { secretPatterns: config.secretPatterns });
      case 'edit_file':
        return describeEdit(config.cwd, request.input as EditFileInput, { secretPatterns: config.secretPatterns });
      case 'run_command':
        return describeCommand(config.cwd, request.input as RunCommandInput, fenceOf(sandbox));
      default:
        return { summary: formatCall(request.toolName, request.input), preview: '' };
    }
  };
}

/** How a command will run, for its approval preview. */
function fenceOf(sandbox: CommandSandbox): string {
  const state = sandbox.state;
  if (state.state === 'on') return state.network ? 'sandboxed, with network' : 'sandboxed, no network ([w] runs it with network)';
  if (state.state === 'unavailable' && state.required) return 'will not run: the sandbox is required but cannot start';
  return 'no sandbox';
}
