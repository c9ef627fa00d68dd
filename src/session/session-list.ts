import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { isCompactionSummary } from '../shared/compaction-summary.ts';
import { splitAttachedFiles } from '../files/attached-file.ts';
import { parseEntry } from './session-entry.ts';
import { isValidSessionId, sessionsDirectory } from './session-paths.ts';

/** One line of the /resume list. */
export interface SessionSummary {
  id: string;
  cwd: string;
  provider: string;
  model: string;
  /** ISO 8601, from the meta line. */
  createdAt: string;
  /** ISO 8601, the file's last modification. */
  updatedAt: string;
  /** Messages a load would replay (after compactions, before repair). */
  messageCount: number;
  /** The user's turns a load would replay (the messages they typed; a /compact summary is not one). */
  turns: number;
  /** The first user message on one line, at most 200 characters (cut to the screen where shown). */
  title: string;
  /** The git branch the session started on, when it was in a repository. */
  branch?: string;
}

export interface ListSessionsOptions {
  /** Only sessions started in this folder (compared as given; pass a resolved path). */
  cwd?: string;
  /** At most this many, newest first. */
  limit?: number;
  /** Also list sessions with no messages (started and left, or killed before the first message). */
  includeEmpty?: boolean;
}

const TITLE_LENGTH = 200;
const MESSAGE_LINE_PREFIX = '{"type":"message"';
const COMPACTION_LINE_PREFIX = '{"type":"compaction"';
/** The writer puts `type` before `message` and `role` first in a message, so a user message line starts so. */
const USER_LINE_PREFIX = '{"type":"message","message":{"role":"user"';

/**
 * Sessions newest first (by last modification). Files are stat'ed, sorted, then read one at a time
 * until `limit` matches are found, so `latestSession` reads only what it needs. Empty sessions are
 * left out unless `includeEmpty`. Unreadable files and files without a meta line are skipped.
 * A missing sessions folder gives an empty list. Never throws.
 */
export function listSessions(home: string, options: ListSessionsOptions = {}): SessionSummary[] {
  const directory = sessionsDirectory(home);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const candidates: { id: string; path: string; modifiedMs: number }[] = [];
  for (const name of readNames(directory)) {
    const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
    if (!isValidSessionId(id)) continue;
    const path = join(directory, name);
    try {
      candidates.push({ id, path, modifiedMs: statSync(path).mtimeMs });
    } catch {
      // Deleted between readdir and stat: not a session any more.
    }
  }
  candidates.sort((a, b) => b.modifiedMs - a.modifiedMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));

  const summaries: SessionSummary[] = [];
  for (const candidate of candidates) {
    if (summaries.length >= limit) break;
    const summary = summarize(candidate.id, candidate.path, candidate.modifiedMs);
    if (summary === undefined) continue;
    if (options.cwd !== undefined && summary.cwd !== options.cwd) continue;
    if (!options.includeEmpty && summary.messageCount === 0) continue;
    summaries.push(summary);
  }
  return summaries;
}

/** The most recently updated non-empty session started in `cwd` (for --continue), if any. Never throws. */
export function latestSession(home: string, cwd: string): SessionSummary | undefined {
  return listSessions(home, { cwd, limit: 1 })[0];
}

function readNames(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}

/** Reads one transcript once; only the meta line, compactions and the first user message are parsed. */
function summarize(id: string, path: string, modifiedMs: number): SessionSummary | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const meta = parseEntry(lines[0] ?? '');
  if (typeof meta !== 'object' || meta.type !== 'meta') return undefined;

  let messageCount = 0;
  let turns = 0;
  let title: string | undefined;
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.startsWith(MESSAGE_LINE_PREFIX)) {
      messageCount++;
      if (line.startsWith(USER_LINE_PREFIX)) turns++;
      if (title === undefined) title = titleOf(parseEntry(line));
    } else if (line.startsWith(COMPACTION_LINE_PREFIX)) {
      const entry = parseEntry(line);
      if (typeof entry !== 'object' || entry.type !== 'compaction') continue;
      messageCount = entry.messages.length;
      turns = entry.messages.filter((message) => message.role === 'user' && !isCompactionSummary(message)).length;
      title ??= entry.messages.map((message) => titleOfMessage(message)).find((found) => found !== undefined);
    }
  }
  return {
    id,
    cwd: meta.cwd,
    provider: meta.provider,
    model: meta.model,
    createdAt: meta.createdAt,
    updatedAt: new Date(modifiedMs).toISOString(),
    messageCount,
    turns,
    title: title ?? '',
    ...(typeof meta.branch === 'string' && meta.branch !== '' && { branch: meta.branch }),
  };
}

function titleOf(entry: ReturnType<typeof parseEntry>): string | undefined {
  return typeof entry === 'object' && entry.type === 'message' ? titleOfMessage(entry.message) : undefined;
}

function titleOfMessage(message: ModelMessage): string | undefined {
  if (message.role !== 'user' || isCompactionSummary(message)) return undefined;
  const text =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
  const oneLine = splitAttachedFiles(text).typed.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return undefined;
  const characters = Array.from(oneLine);
  return characters.length <= TITLE_LENGTH ? oneLine : `${characters.slice(0, TITLE_LENGTH - 1).join('')}…`;
}
