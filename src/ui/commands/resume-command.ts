import { ConfigError } from '../../shared/config-error.ts';
import type { SessionControl } from '../../runtime/runtime.ts';
import type { CommandState } from '../state/repl-state.ts';
import { openResumed, type Replay } from './resume.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { resumableSessions, sessionItem, sessionPickRequest } from './session-picker.ts';

/**
 * `/resume [id]`: goes on with another saved session of this folder. Without an id, the filtering
 * picker (on a terminal) or the list with ids to pass. The session left is saved as it is.
 */
export async function resumeCommand(argument: string, state: CommandState<Pick<SessionControl, 'sessionId' | 'conversation' | 'resumeSession'>>): Promise<void> {
  const runtime = state.runtime;
  let id = argument.trim();
  if (id === '') {
    const { sessions, here } = resumableSessions(state.config.home, state.config.cwd, runtime.sessionId);
    if (sessions.length === 0) return state.print('  No other saved session to resume.');
    if (!state.pick) {
      const now = new Date();
      for (const session of sessions.slice(0, 10)) {
        const item = sessionItem(session, { now, showFolder: !here });
        state.print(`  ${sanitizeLine(session.id)}  ${sanitizeLine(item.title.slice(0, 60))}  ${state.dim(sanitizeLine(item.detail))}`);
      }
      return state.print(state.dim('  Resume one with /resume ID.'));
    }
    const chosen = await state.pick(sessionPickRequest(sessions, { here, hint: 'resumes · Esc stays in this session' }));
    if (chosen === undefined) return state.print(state.dim('  Staying in this session.'));
    id = sessions[chosen]!.id;
  }
  if (id === runtime.sessionId) return state.print('  That is the session you are in.');

  const left = runtime.conversation.length > 0 ? runtime.sessionId : undefined;
  const output = state.output;
  const replay: Replay | undefined = output?.isTTY
    ? async (messages) => (await import('../render/transcript.ts')).replayTranscript(messages, output)
    : undefined;
  let resumed;
  try {
    resumed = await openResumed(state.config, id, (line) => state.print(state.dim(line)), replay, 'staying in this session');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return state.print(`  ${sanitizeLine(error.message)}`);
  }
  if (!resumed) return;
  runtime.resumeSession(resumed);
  state.lastToolCalls = [];
  if (left) state.print(state.dim(`The session you left is saved: sylvan --resume ${left}`));
}
