import { lstat } from 'node:fs/promises';
import { reasonOf } from '../../session/session-home.ts';
import { sessionMarkdown } from '../../session/session-markdown.ts';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { resolveWorkspaceTarget, type WorkspaceTarget } from '../../shared/workspace-path.ts';
import type { ModelControl, SessionControl } from '../../runtime/runtime.ts';
import { askOneKey, KEEP_OR_OVERWRITE } from '../state/one-key-question.ts';
import type { CommandState } from '../state/repl-state.ts';
import { sanitize, sanitizeLine } from '../../shared/text/sanitize.ts';

/** Names tried after the default one is taken: `…-2.md` up to this. */
const MAX_NAME_TRIES = 100;

/**
 * `/export [file]`: the session as Markdown in a workspace file (default
 * `sylvan-session-<id>.md`), keys redacted as in the session file and control characters made
 * visible. A path outside the workspace, a secret file's name or `.git/` is refused; an existing
 * file is replaced only when the user says so (the default name moves on to `-2`, `-3`…).
 * Written atomically. Says where it went.
 */
export async function exportCommand(
  argument: string,
  state: CommandState<Pick<SessionControl, 'conversation' | 'sessionId' | 'redact'> & Partial<Pick<SessionControl, 'subagentUsage'>> & Pick<ModelControl, 'model'>>,
): Promise<void> {
  const messages = state.runtime.conversation.messages;
  if (messages.length === 0) return state.print('  Nothing to export yet.');
  const requested = argument.trim();
  const resolve = (name: string) => resolveWorkspaceTarget(state.config.cwd, name, { forWrite: true, secretPatterns: state.config.secretPatterns });
  let target: WorkspaceTarget;
  try {
    if (requested !== '') {
      target = await resolve(requested);
      if (await exists(target.absolutePath)) {
        const answer = await askOneKey(state, `  ${sanitizeLine(target.relativePath)} exists. Overwrite it?`, KEEP_OR_OVERWRITE);
        if (answer !== 'y') return state.print('  Not exported.');
      }
    } else {
      target = await freeTarget(`sylvan-session-${state.runtime.sessionId}`, resolve);
    }
  } catch (error) {
    return state.print(`  Not exported: ${sanitizeLine((error as Error).message)}.`);
  }
  const markdown = sessionMarkdown(messages, {
    sessionId: state.runtime.sessionId,
    model: state.runtime.model,
    folder: state.config.cwd,
    exportedAt: new Date(),
    subagents: new Map((state.runtime.subagentUsage ?? []).map((record) => [record.toolCallId, record])),
  });
  const redact = state.runtime.redact;
  try {
    await writeFileAtomic(target.absolutePath, sanitize(redact(markdown)));
  } catch (error) {
    return state.print(`  Not exported: ${sanitizeLine(target.relativePath)} could not be written (${sanitizeLine(reasonOf(error))}).`);
  }
  const turns = messages.filter((message) => message.role === 'user').length;
  state.print(`  Exported ${turns} turn${turns === 1 ? '' : 's'} to ${sanitizeLine(target.relativePath)}`);
}

async function freeTarget(stem: string, resolve: (name: string) => Promise<WorkspaceTarget>): Promise<WorkspaceTarget> {
  for (let index = 1; index <= MAX_NAME_TRIES; index++) {
    const target = await resolve(`${stem}${index === 1 ? '' : `-${index}`}.md`);
    if (!(await exists(target.absolutePath))) return target;
  }
  throw new Error(`${stem}.md and ${MAX_NAME_TRIES - 1} numbered names after it are taken; give a file name`);
}

async function exists(absolutePath: string): Promise<boolean> {
  return lstat(absolutePath).then(() => true, () => false);
}
