import { redactSecrets } from '../shared/redact-secrets.ts';
import type { ToolSpecLookup } from '../tools/tool-spec.ts';
import { matches } from './hook-matcher.ts';
import { verdictOf } from './hook-output.ts';
import type { FileHooks } from './hook-settings.ts';
import type { HookTrust } from './hook-trust.ts';
import { TOOL_EVENTS, emptyVerdict, type ConfiguredHook, type HookEvent, type HookRun, type HookVerdict } from './hook-types.ts';
import { postHook } from './http-hook.ts';
import { runCommandHook } from './run-command-hook.ts';

/** Claude Code's default: a hook may take a minute. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** The session a hook is told about. */
export interface HookSession {
  id: () => string;
  transcriptPath: () => string;
  /** Claude Code's words for the mode: `default`, `acceptEdits`, `plan`, `bypassPermissions`. */
  permissionMode: () => string;
}

/** One hook decision, as the session file records it. */
export interface HookRecord {
  event: HookEvent;
  hooks: { hook: string; exit: HookRun['exit']; ms: number }[];
  blocked?: string;
  permission?: string;
  updatedInput?: true;
  context?: true;
}

export interface HooksOptions {
  files: readonly FileHooks[];
  trust: HookTrust;
  projectDir: string;
  session: HookSession;
  specOf: ToolSpecLookup;
  /** Every key Sylvan holds: withheld from a hook's environment and scrubbed from what it says. */
  secrets: () => readonly string[];
  /** Each event that ran hooks, for the session file. */
  record: (record: HookRecord) => void;
}

/** The last run of a hook, for /hooks. */
export interface LastRun {
  exit: HookRun['exit'];
  ms: number;
  at: Date;
}

/**
 * The configured hooks and how to run them: the user's own always, a project's only while the user
 * trusts them as they are. Matching hooks of one event run concurrently; what they said is read
 * into one verdict (`hook-output.ts`), their words scrubbed of secrets first.
 */
export class Hooks {
  private files: readonly FileHooks[];
  private readonly lastRuns = new Map<ConfiguredHook['handler'], LastRun>();

  constructor(private readonly options: HooksOptions) {
    this.files = options.files;
  }

  /** Every hook, with whether it runs. */
  list(): (ConfiguredHook & { lastRun?: LastRun })[] {
    return this.files.flatMap((file) => {
      const trusted = this.isTrusted(file);
      return file.hooks.map((hook) => ({ ...hook, trusted, ...(this.lastRuns.has(hook.handler) && { lastRun: this.lastRuns.get(hook.handler)! }) }));
    });
  }

  /** The project files whose hooks wait for the user's trust (none, or changed since they were trusted). */
  untrusted(): FileHooks[] {
    return this.files.filter((file) => file.hooks.length > 0 && !this.isTrusted(file));
  }

  /** Events named in a file that Sylvan does not have, per file. */
  unknownEvents(): { file: string; events: string[] }[] {
    return this.files.filter((file) => file.unknownEvents.length > 0).map((file) => ({ file: file.file, events: file.unknownEvents }));
  }

  /** Trusts every project file's hooks as they are now. Returns the files trusted; throws a readable error when it cannot record it. */
  trustProject(): string[] {
    const waiting = this.untrusted();
    for (const file of waiting) this.options.trust.trust(file.file, file.fingerprint);
    return waiting.map((file) => file.file);
  }

  /** Whether any runnable hook listens to `event`: the caller skips building its input otherwise. */
  listens(event: HookEvent): boolean {
    return this.runnable(event).length > 0;
  }

  /**
   * Runs the hooks of `event` that match `subject` (a tool's name for tool events), with the
   * event's fields on stdin. Never throws; with no matching hook the verdict is empty.
   */
  async run(event: HookEvent, subject: string | undefined, fields: Record<string, unknown>, signal: AbortSignal): Promise<HookVerdict> {
    const chosen = this.runnable(event).filter((hook) => matches(hook.matcher, subject, TOOL_EVENTS.has(event) ? this.options.specOf : undefined));
    if (chosen.length === 0) return emptyVerdict();
    const { session, projectDir } = this.options;
    const input = JSON.stringify({
      session_id: session.id(),
      transcript_path: session.transcriptPath(),
      cwd: projectDir,
      permission_mode: session.permissionMode(),
      hook_event_name: event,
      ...fields,
    });
    const secrets = this.options.secrets();
    const runs = await Promise.all(chosen.map((hook) => this.runOne(hook, input, secrets, signal)));
    const verdict = verdictOf(event, runs);
    this.options.record({
      event,
      hooks: runs.map((run) => ({ hook: run.hook.handler.type === 'command' ? run.hook.handler.command : run.hook.handler.url, exit: run.exit, ms: run.ms })),
      ...(verdict.block && { blocked: verdict.block.reason }),
      ...(verdict.permission && { permission: verdict.permission.decision }),
      ...(verdict.updatedInput && { updatedInput: true as const }),
      ...(verdict.context.length > 0 && { context: true as const }),
    });
    return verdict;
  }

  private async runOne(hook: ConfiguredHook, input: string, secrets: readonly string[], signal: AbortSignal): Promise<HookRun> {
    const started = Date.now();
    const timeoutMs = (hook.handler.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000;
    const ran =
      hook.handler.type === 'command'
        ? await runCommandHook({ command: hook.handler.command, input, projectDir: this.options.projectDir, timeoutMs, signal, heldKeys: secrets })
        : await postHook({ url: hook.handler.url, headers: hook.handler.headers, input, timeoutMs, signal });
    const ms = Date.now() - started;
    this.lastRuns.set(hook.handler, { exit: ran.exit, ms, at: new Date() });
    // What a hook says reaches the model, the screen and the session file: never a key Sylvan holds.
    return { hook, exit: ran.exit, ms, stdout: redactSecrets(ran.stdout, secrets), stderr: redactSecrets(ran.stderr, secrets) };
  }

  private runnable(event: HookEvent): ConfiguredHook[] {
    return this.files.filter((file) => this.isTrusted(file)).flatMap((file) => file.hooks.filter((hook) => hook.event === event).map((hook) => ({ ...hook, trusted: true })));
  }

  private isTrusted(file: FileHooks): boolean {
    return file.own || this.options.trust.isTrusted(file.file, file.fingerprint);
  }
}
