/** The points of a session where hooks run, by Claude Code's names (Qwen Code and Codex read the same). */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'Stop',
  'PreCompact',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The events whose matcher is a tool name; the others match what the event names (`manual`, `startup`…) or run always. */
export const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure']);

export type HookHandler =
  | { type: 'command'; command: string; timeout?: number }
  | { type: 'http'; url: string; headers?: Record<string, string>; timeout?: number };

/** One handler as configured, with where it came from. */
export interface ConfiguredHook {
  event: HookEvent;
  /** A regular expression over tool names (or the event's subject); empty or `*` matches everything. */
  matcher: string;
  handler: HookHandler;
  /** The settings file that holds it. */
  source: string;
  /** The user's own file, or a project's whose hooks the user trusted as they are now. */
  trusted: boolean;
}

/** What one handler did: its exit (or HTTP status), how long it took, and what it said. */
export interface HookRun {
  hook: ConfiguredHook;
  /** 0, 2 or another exit code; `timed-out` and `interrupted` when Sylvan ended it; `failed` when it could not start. */
  exit: number | 'timed-out' | 'interrupted' | 'failed';
  stdout: string;
  stderr: string;
  ms: number;
}

/** The permission a hook gave a call (PreToolUse) or answered for the user (PermissionRequest). */
export type HookPermission = 'allow' | 'deny' | 'ask';

/**
 * What the matching hooks of one event said together: the strictest decision wins (deny over ask
 * over allow, a block over anything), contexts and messages are kept in order.
 */
export interface HookVerdict {
  /** Exit 2, `decision: "block"`, `continue: false`: the prompt, the call or the stop is blocked; the reason says why. */
  block?: { reason: string };
  permission?: { decision: HookPermission; reason?: string };
  /** A rewritten tool input (`updatedInput`): what runs instead of what the model asked for. */
  updatedInput?: Record<string, unknown>;
  /** Text for the model: `additionalContext`, or plain stdout where the event allows. */
  context: string[];
  /** PostToolUse: what the model reads instead of the tool's own result. */
  replacedOutput?: string;
  /** Lines for the user: `systemMessage`, a non-blocking error, a hook that timed out. */
  notes: string[];
}

export const emptyVerdict = (): HookVerdict => ({ context: [], notes: [] });
