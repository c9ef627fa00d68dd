import type { AgentEvent } from '../agent/loop/events.ts';
import type { Config } from '../config/config.ts';
import { Hooks } from '../hooks/hook-runner.ts';
import { hooksOfLayers } from '../hooks/hook-settings.ts';
import { HookTrust } from '../hooks/hook-trust.ts';
import type { ApprovalMode } from '../tools/approval-mode.ts';
import type { ToolSpecLookup } from '../tools/tool-spec.ts';
import type { LiveSession } from './live-session.ts';

/** Claude Code's names for the approval modes, as a hook reads them in `permission_mode`. */
const PERMISSION_MODES: Record<ApprovalMode, string> = { ask: 'default', 'auto-edit': 'acceptEdits', plan: 'plan' };

/** The hooks of the settings files, wired to the live session (its id, its file, its mode). */
export function createHooks(config: Config, session: LiveSession, specOf: ToolSpecLookup, secrets: () => readonly string[], mode: () => ApprovalMode): Hooks {
  return new Hooks({
    files: hooksOfLayers(config.settings?.layers ?? []),
    trust: new HookTrust(config.home),
    projectDir: config.cwd,
    specOf,
    secrets,
    session: {
      id: () => session.writer.id,
      transcriptPath: () => session.writer.path,
      permissionMode: () => (config.yes ? 'bypassPermissions' : PERMISSION_MODES[mode()]),
    },
    record: (record) => session.writer.appendHook(record),
  });
}

/** What the hooks before a turn made of it: context for the model, or the reason it was blocked. */
export interface PromptHooks {
  context: string[];
  blocked?: string;
}

/**
 * The hooks before the first model request of a turn: SessionStart once per session (`startup`,
 * `resume` or `clear`), then UserPromptSubmit. Their notes are yielded; their context goes with
 * the user's message. A UserPromptSubmit block keeps the prompt from being sent.
 */
export async function* beforeTurnHooks(hooks: Hooks, start: string | undefined, prompt: string, signal: AbortSignal): AsyncGenerator<AgentEvent, PromptHooks> {
  const context: string[] = [];
  if (start !== undefined && hooks.listens('SessionStart')) {
    const verdict = await hooks.run('SessionStart', start, { source: start }, signal);
    for (const note of verdict.notes) yield { type: 'notice', message: note };
    context.push(...verdict.context.map((text) => `[SessionStart hook] ${text}`));
  }
  if (!hooks.listens('UserPromptSubmit')) return { context };
  const verdict = await hooks.run('UserPromptSubmit', undefined, { prompt }, signal);
  for (const note of verdict.notes) yield { type: 'notice', message: note };
  if (verdict.block) return { context, blocked: verdict.block.reason };
  context.push(...verdict.context.map((text) => `[UserPromptSubmit hook] ${text}`));
  return { context };
}

/** One line per project file whose hooks wait for the user's trust. */
export function untrustedHooksNotes(hooks: Hooks): string[] {
  return hooks.untrusted().map((file) => {
    const count = file.hooks.length;
    return `(${count} hook${count === 1 ? '' : 's'} in ${file.file} did not run: a folder's hooks run only once you trust them; /hooks shows them, /hooks trust lets them run)`;
  });
}
