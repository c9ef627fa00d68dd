/**
 * Which calls need the user's yes, and what an "always" answer covers. One policy with kinds:
 * each kind has its own scope (this tool, this command prefix, this domain, this MCP server).
 * Kept light: the REPL loads it at start, before the SDK.
 */

import { commandScope } from './shell/command-scope.ts';
import { fetchDomainOf } from './web/fetch-domain.ts';

export type ApprovalKind = 'write' | 'edit' | 'command' | 'domain' | 'mcp';

export interface ApprovalScope {
  kind: ApprovalKind;
  /**
   * What an "always" answer remembers for the session: a later call with the same key is allowed
   * without asking. Also the form settings use to approve ahead (e.g. `command:npm test`).
   */
  key: string;
  /** Completes the question's "[a]lways …" choice, e.g. "this session" or "`npm test …` this session". */
  alwaysLabel: string;
  /** No "always" is offered: the call is asked every time (a compound shell command). */
  oneTime?: true;
}

/** Resolves the scope of one tool's calls; undefined means the call needs no approval. */
export type ApprovalScopeResolver = (toolName: string, input: unknown) => ApprovalScope | undefined;

/** The built-in tools that need approval. A family that adds one adds its entry here. */
const BUILT_IN_SCOPES: Record<string, (input: unknown) => ApprovalScope> = {
  write_file: () => ({ kind: 'write', key: 'write_file', alwaysLabel: 'this session' }),
  run_command: (input) => ({ kind: 'command', ...commandScope(input) }),
  edit_file: (input) => ({ kind: 'edit', ...editScope(input) }),
  web_fetch: (input) => ({ kind: 'domain', key: `domain:${fetchDomainOf(input)}`, alwaysLabel: `fetches from ${fetchDomainOf(input)} this session` }),
};

/**
 * The scope of a call that needs approval, or undefined when it needs none. `extra` resolves tools
 * that are not built in (MCP servers' tools) and is asked only for names not in the table.
 */
export function approvalScopeOf(
  toolName: string,
  input: unknown,
  extra?: ApprovalScopeResolver,
): ApprovalScope | undefined {
  const builtIn = BUILT_IN_SCOPES[toolName];
  if (builtIn) return builtIn(input);
  return extra?.(toolName, input);
}

/** "Always" for an edit covers further edits of the same file this session. */
function editScope(input: unknown): { key: string; alwaysLabel: string } {
  const given = (input as { path?: unknown } | null)?.path;
  const file = typeof given === 'string' ? given.replace(/\\/g, '/').replace(/^(\.\/)+/, '') : '';
  return { key: `edit:${file}`, alwaysLabel: `edits of ${file} this session` };
}
