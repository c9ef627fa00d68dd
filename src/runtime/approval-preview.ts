import type { ApprovalRequest } from '../agent/turn-options.ts';
import type { Config } from '../config/config.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';
import type { CallDescription, ToolSpecLookup } from '../tools/tool-spec.ts';
import { formatCall } from '../ui/render.ts';

/** What the user sees before approving a call: a summary line and a preview. */
export function approvalPreview(config: Config, sandbox: CommandSandbox, specOf: ToolSpecLookup): (request: ApprovalRequest) => Promise<CallDescription> {
  return async (request) => {
    const describe = specOf(request.toolName)?.describe;
    if (!describe) return { summary: formatCall(request.toolName, request.input), preview: '' };
    return describe(request.input, { workspaceRoot: config.cwd, secretPatterns: config.secretPatterns, fence: fenceOf(sandbox) });
  };
}

/** How a command will run, for its approval preview. */
function fenceOf(sandbox: CommandSandbox): string {
  const state = sandbox.state;
  if (state.state === 'on') return state.network ? 'sandboxed, with network' : 'sandboxed, no network ([w] runs it with network)';
  if (state.state === 'unavailable' && state.required) return 'will not run: the sandbox is required but cannot start';
  return 'no sandbox';
}
