/**
 * What a tool is, declared beside its factory: plan mode, approval, checkpoints, the approval
 * preview, the loop's timeout, the display and the system prompt read it, and no other place
 * keeps a list of tool names. Light on purpose (no SDK): the UI loads it before the runtime.
 */

/**
 * What a call does. `read`, `search`, `fetch` and `think` only read (or change nothing but the
 * model's own notes): plan mode offers them. Any other kind may change something, so it needs a
 * scope and is asked about.
 */
export type ToolKind = 'read' | 'search' | 'fetch' | 'think' | 'write' | 'edit' | 'command' | 'other';

const READ_ONLY_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search', 'fetch', 'think']);

/** Whether a tool of this kind changes nothing; a tool with no declared kind is not. */
export const onlyReads = (spec: ToolSpec | undefined): boolean => spec !== undefined && READ_ONLY_KINDS.has(spec.kind);

/** How an approval's "always" is grouped: its own menu wording and settings' key form follow it. */
export type ScopeKind = 'write' | 'edit' | 'command' | 'domain' | 'mcp' | 'tool';

export interface ApprovalScope {
  kind: ScopeKind;
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

/** A call as the approval question shows it; `previewFormat: 'diff'` lets the terminal colour a unified diff. */
export interface CallDescription {
  summary: string;
  preview: string;
  previewFormat?: 'diff';
  /** The whole of what `preview` shows part of (a new file's content): the approval menu offers to show it. */
  fullPreview?: string;
}

/** What describing a call for its preview may read: the workspace, and how a command would run. */
export interface PreviewContext {
  workspaceRoot: string;
  secretPatterns: readonly string[];
  /** How a command will run (sandboxed, with network…), said in its preview. */
  fence?: string;
}

/** `NAME` keeps a built-in tool's name a literal, so the registry's tool set knows its keys. */
export interface ToolSpec<NAME extends string = string> {
  name: NAME;
  kind: ToolKind;
  /**
   * What a call needs approval for and what an "always" covers. A tool that can change anything
   * declares one (a test holds every registered tool to it); a read-only tool with one is asked
   * about too (a fetch of a new domain). A tool of a changing kind without one is still asked,
   * scoped to the tool itself.
   */
  scope?: (input: unknown) => ApprovalScope;
  /**
   * The user's settings trust this tool (an MCP server marked trusted, a tool approved in
   * `permissions.allow`): it runs without a question, except in plan mode unless it only reads.
   */
  trusted?: true;
  /** The approval preview; without one the call is shown as `name(arguments)`. */
  describe?: (input: unknown, context: PreviewContext) => Promise<CallDescription>;
  /** Recorded before it runs so /undo reverses it: the file at `input.path`, or the whole workspace after a command. */
  checkpoint?: 'file' | 'command';
  /** The loop's limit for one call, from the configured one; absent, the configured one. */
  timeoutMs?: (configuredMs: number) => number;
  /** How a finished call is shown collapsed: a command's last lines, a listing's first findings, else its first line. */
  display?: 'command' | 'listing';
  /** A line for the system prompt while the tool is offered: when and how to use it. */
  guidance?: string;
}

/** The spec of a tool by name; undefined for a tool that declared none. */
export type ToolSpecLookup = (toolName: string) => ToolSpec | undefined;
