import type { ModelMessage } from 'ai';
import { isCompactionSummary } from '../agent/context-window.ts';
import type { TokenUsage } from '../agent/events.ts';
import type { TodoItem } from '../tools/todo/todo-list.ts';
import { ConfigError, type Config } from '../config.ts';
import { latestSession, listSessions, loadSession, openSessionForAppend, SessionLockedError, sessionsUnavailable, type SessionWriter } from '../session/store.ts';
import type { LineReader } from './line-reader.ts';
import { sanitizeLine } from './sanitize.ts';

export interface ResumedSession {
  messages: ModelMessage[];
  writer: SessionWriter;
  usage: TokenUsage;
  /** The model's todo list as the session left it. */
  todo: TodoItem[];
}

/**
 * --continue (the latest session of this folder), --resume ID, or --resume (pick from a list).
 * Tells the user what was loaded and any damage skipped; undefined means start a new session.
 */
export async function resolveResume(
  config: Config,
  reader: LineReader | undefined,
  say: (line: string) => void,
): Promise<ResumedSession | undefined> {
  const request = config.resume;
  if (!request) return undefined;
  let id: string;
  if (request.kind === 'id') {
    id = request.id;
  } else if (request.kind === 'latest') {
    const latest = latestSession(config.home, config.cwd);
    if (!latest) {
      const problem = sessionsUnavailable(config.home);
      say(problem ? `No earlier session can be found: ${problem}; starting a new one.` : 'No earlier session in this folder; starting a new one.');
      return undefined;
    }
    id = latest.id;
  } else {
    const here = listSessions(config.home, { cwd: config.cwd, limit: 10 });
    const sessions = here.length > 0 ? here : listSessions(config.home, { limit: 10 });
    if (sessions.length === 0 || !reader) {
      say('No saved sessions yet; starting a new one.');
      return undefined;
    }
    sessions.forEach((session, index) => {
      const folder = session.cwd === config.cwd ? '' : `  [${session.cwd}]`;
      say(sanitizeLine(`  ${String(index + 1).padStart(2)}. ${session.updatedAt.slice(0, 16).replace('T', ' ')}  ${session.title}  (${session.messageCount} messages)${folder}`));
    });
    const answer = await reader.read('Resume which session? (number, Enter for a new one) › ', { remember: false });
    const choice = answer.kind === 'line' ? Number(answer.line.trim()) : Number.NaN;
    const picked = Number.isInteger(choice) ? sessions[choice - 1] : undefined;
    if (!picked) {
      say('Starting a new session.');
      return undefined;
    }
    id = picked.id;
  }

  let loaded;
  try {
    loaded = loadSession(config.home, id);
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} See /sessions or sylvan --resume for the list.`);
  }
  let writer: SessionWriter;
  try {
    writer = openSessionForAppend(config.home, id, { secrets: config.secrets });
  } catch (error) {
    if (!(error instanceof SessionLockedError)) throw new ConfigError((error as Error).message);
    // Two writers would interleave their lines into an invalid history.
    say(`${sanitizeLine(error.message)}; starting a new session instead.`);
    return undefined;
  }
  for (const warning of loaded.warnings) say(`warning: ${sanitizeLine(warning)}`);
  const turns = loaded.messages.filter((message) => message.role === 'user' && !isCompactionSummary(message)).length;
  say(`Resumed session ${id} (${turns} earlier turn${turns === 1 ? '' : 's'}).`);
  return { messages: loaded.messages, writer, usage: loaded.usage, todo: loaded.todo };
}
