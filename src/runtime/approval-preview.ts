import type { ApprovalRequest } from '../agent/loop/turn-options.ts';
import type { Config } from '../config/config.ts';
import type { CommandSandbox } from '../sandbox/command-sandbox.ts';
import type { CallDescription, ToolSpecLookup } from '../tools/tool-spec.ts';
import { formatCall } from '../shared/text/call-text.ts';

/** What the user sees before approving a call: a summary line and a preview. */
export function approvalPreview(
  config: Config,
  sandbox: CommandSandbox,
  specOf: ToolSpecLookup,
  /** Outside git, the line saying a command's changes cannot be undone: said before it runs. */
  noteBeforeCommand: () => Promise<string | undefined>,
): (request: ApprovalRequest) => Promise<CallDescription> {
  return async (request) => {
    const spec = specOf(request.toolName);
    if (!spec?.describe) return { summary: formatCall(request.toolName, request.input), preview: '' };
    const described = await spec.describe(request.input, { workspaceRoot: config.cwd, secretPatterns: config.secretPatterns, fence: fenceOf(sandbox) });
    const note = spec.checkpoint === 'command' ? await noteBeforeCommand() : undefined;
    return note === undefined ? described : { ...described, preview: `${described.preview}\n${note}` };
  };
}

/** How a command will run, for its approval preview. */
function fenceOf(sandbox: CommandSandbox): string {
  const state = sandbox.state;
  if (state.state === 'on') return state.network ? 'sandboxed, with network' : 'sandboxed, no network ([w] runs it with network)';
  if (state.state === 'unavailable' && state.required) return 'will not run: the sandbox is required but cannot start';
  return 'no sandbox';
}
