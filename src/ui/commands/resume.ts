import { existsSync } from 'node:fs';
import type { ModelMessage } from 'ai';
import { isCompactionSummary } from '../../shared/compaction-summary.ts';
import type { TokenUsage } from '../../shared/token-usage.ts';
import type { TodoItem } from '../../tools/todo/todo-list.ts';
import { ConfigError } from '../../shared/config-error.ts';
import type { Config } from '../../config/config.ts';
import { loadSession, type SessionSpend } from '../../session/store.ts';
import { latestSession } from '../../session/session-list.ts';
import { sessionsUnavailable } from '../../session/session-home.ts';
import { SessionLockedError } from '../../session/session-lock.ts';
import { openSessionForAppend, type SessionWriter } from '../../session/session-writer.ts';
import { sessionPath, sessionsDirectory } from '../../session/session-paths.ts';
import type { LineReader } from '../input/line-reader-contract.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { resumableSessions, sessionPickRequest } from './session-picker.ts';

export interface ResumedSession {
  messages: ModelMessage[];
  writer: SessionWriter;
  usage: TokenUsage;
  /** The model's todo list as the session left it. */
  todo: TodoItem[];
  /** What the session has cost so far. */
  spend: SessionSpend;
}

/** Draws a resumed conversation before the prompt (on a terminal); print mode passes none. */
export type Replay = (messages: readonly ModelMessage[]) => Promise<void>;

/**
 * --continue (the latest session of this folder), --resume ID, or --resume (pick from a list: the
 * filtering picker on a terminal, a numbered list otherwise). Redraws the conversation through
 * `replay`, then tells the user what was loaded and any damage skipped; undefined means start a new
 * session.
 */
export async function resolveResume(
  config: Config,
  reader: LineReader | undefined,
  say: (line: string) => void,
  replay?: Replay,
): Promise<ResumedSession | undefined> {
  const request = config.resume;
  if (!request) return undefined;
  let id: string | undefined;
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
    id = await pickAtStart(config, reader, say);
    if (id === undefined) return undefined;
  }
  return openResumed(config, id, say, replay);
}

async function pickAtStart(config: Config, reader: LineReader | undefined, say: (line: string) => void): Promise<string | undefined> {
  const { sessions, here } = resumableSessions(config.home, config.cwd);
  if (sessions.length === 0 || !reader) {
    say('No saved sessions yet; starting a new one.');
    return undefined;
  }
  if (reader.pick) {
    const chosen = await reader.pick(sessionPickRequest(sessions, { here, hint: 'resumes · Esc starts a new session' }));
    if (chosen === undefined) say('Starting a new session.');
    return chosen === undefined ? undefined : sessions[chosen]?.id;
  }
  const listed = sessions.slice(0, 10);
  listed.forEach((session, index) => {
    const folder = here ? '' : `  [${session.cwd}]`;
    say(sanitizeLine(`  ${String(index + 1).padStart(2)}. ${session.updatedAt.slice(0, 16).replace('T', ' ')}  ${session.title.slice(0, 60)}  (${session.messageCount} message${session.messageCount === 1 ? '' : 's'})${folder}`));
  });
  const answer = await reader.read('Resume which session? (number, Enter for a new one) › ', { remember: false });
  const choice = answer.kind === 'line' ? Number(answer.line.trim()) : Number.NaN;
  const picked = Number.isInteger(choice) ? listed[choice - 1] : undefined;
  if (!picked) say('Starting a new session.');
  return picked?.id;
}

/**
 * Throws the one-line `ConfigError` for `--resume ID` naming no saved session, before anything
 * (the banner) is printed; `openResumed` says the same should the file go in between.
 */
export function assertResumable(config: Config): void {
  if (config.resume?.kind !== 'id') return;
  const { id } = config.resume;
  let path: string;
  try {
    path = sessionPath(config.home, id);
  } catch (error) {
    throw new ConfigError(`Could not open the session: ${(error as Error).message} See /sessions or sylvan --resume for the list.`);
  }
  if (!existsSync(path)) {
    throw new ConfigError(`Could not open the session: there is no session "${id}" in ${sessionsDirectory(config.home)}. See /sessions or sylvan --resume for the list.`);
  }
}

/**
 * Loads session `id` and takes its transcript to append to: redraws it (`replay`), then one line per
 * damage skipped, a dim note for calls a crash left open, and `Resumed session …`. Throws
 * `ConfigError` (one line) for an unknown or unreadable session; undefined when another running
 * Sylvan holds it (said so).
 */
export async function openResumed(
  config: Config,
  id: string,
  say: (line: string) => void,
  replay?: Replay,
  /** What happens instead when the session is open elsewhere. */
  otherwise = 'starting a new session instead',
): Promise<ResumedSession | undefined> {
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
    say(`${sanitizeLine(error.message)}; ${otherwise}.`);
    return undefined;
  }
  await replay?.(loaded.messages);
  for (const warning of loaded.warnings) say(`warning: ${sanitizeLine(warning)}`);
  // A call the user stopped has its result on file; one left open means the process ended mid-call.
  const open = loaded.unfinishedCalls;
  if (open > 0) say(`(${open === 1 ? '1 tool call' : `${open} tool calls`} did not finish when that session ended; marked as interrupted)`);
  const turns = loaded.messages.filter((message) => message.role === 'user' && !isCompactionSummary(message)).length;
  say(`Resumed session ${id} (${turns} earlier turn${turns === 1 ? '' : 's'}).`);
  return { messages: loaded.messages, writer, usage: loaded.usage, todo: loaded.todo, spend: loaded.spend };
}
