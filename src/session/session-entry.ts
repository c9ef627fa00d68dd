import type { ModelMessage } from 'ai';
import type { TokenUsage } from '../shared/token-usage.ts';
import { isTodoItem, type TodoItem } from '../tools/todo/todo-list.ts';

/** Version written in the meta line; readers accept any version and skip entry types they do not know. */
export const SESSION_FORMAT_VERSION = 1;

/** The first line of every transcript. */
export interface SessionMeta {
  type: 'meta';
  version: number;
  id: string;
  /** The working directory the session was started in (for --continue). */
  cwd: string;
  provider: string;
  model: string;
  /** ISO 8601. */
  createdAt: string;
  /** The git branch the working directory was on when the session started (absent outside a repository). */
  branch?: string;
}

/** One message that entered the history. */
export interface MessageEntry {
  type: 'message';
  message: ModelMessage;
}

/** /compact: on load, these messages replace every message before this line. */
export interface CompactionEntry {
  type: 'compaction';
  messages: ModelMessage[];
}

/** Provider-reported usage of one request, and what it cost when its price was known. */
export interface UsageEntry {
  type: 'usage';
  usage: TokenUsage;
  /** The estimate at the prices of the time, in `currency`: summed on load, so --continue resumes the session's spend. */
  cost?: number;
  currency?: string;
}

/** The model's todo list after a `todo_write`: on load, the last one is the session's list. */
export interface TodoEntry {
  type: 'todo';
  items: TodoItem[];
}

/** What the user's hooks decided at one event (`hooks/hook-runner.ts`): kept for the record, not read back on load. */
export interface HookEntry {
  type: 'hook';
  event: string;
  hooks: { hook: string; exit: number | string; ms: number }[];
  blocked?: string;
  permission?: string;
  updatedInput?: true;
  context?: true;
}

/** Which subagent a message belongs to: the `task` call that started it, its id and its agent. */
export interface SubagentLink {
  toolCallId: string;
  agentId: string;
  agent: string;
}

/**
 * One message of a subagent's own conversation. The main history holds only the subagent's bounded
 * answer (the `task` call's result); this keeps the whole of its work, linked to that call.
 */
export interface SubagentMessageEntry extends SubagentLink {
  type: 'subagent-message';
  message: ModelMessage;
}

/** One line of a transcript (`$SYLVAN_HOME/sessions/<id>.jsonl`), one JSON object per line. */
export type SessionEntry = SessionMeta | MessageEntry | CompactionEntry | UsageEntry | TodoEntry | HookEntry | SubagentMessageEntry;

/** Why a line could not be used: unreadable JSON or a known entry type with the wrong shape. */
export type EntryProblem = 'damaged';

/**
 * Parses one transcript line. Returns the entry, `'damaged'` for broken JSON or a malformed known
 * entry, or `undefined` for an entry type this version does not know (a newer Sylvan wrote it).
 */
export function parseEntry(line: string): SessionEntry | EntryProblem | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'damaged';
  }
  if (!isRecord(value) || typeof value.type !== 'string') return 'damaged';
  switch (value.type) {
    case 'meta':
      return isMeta(value) ? value : 'damaged';
    case 'message':
      return isModelMessage(value.message) ? (value as unknown as MessageEntry) : 'damaged';
    case 'compaction':
      return Array.isArray(value.messages) && value.messages.every(isModelMessage)
        ? (value as unknown as CompactionEntry)
        : 'damaged';
    case 'usage':
      return isRecord(value.usage) ? (value as unknown as UsageEntry) : 'damaged';
    case 'todo':
      return Array.isArray(value.items) && value.items.every(isTodoItem) ? (value as unknown as TodoEntry) : 'damaged';
    case 'hook':
      return typeof value.event === 'string' && Array.isArray(value.hooks) ? (value as unknown as HookEntry) : 'damaged';
    default:
      return undefined;
  }
}

function isMeta(value: Record<string, unknown>): value is Record<string, unknown> & SessionMeta {
  return (
    typeof value.id === 'string' &&
    typeof value.cwd === 'string' &&
    typeof value.provider === 'string' &&
    typeof value.model === 'string' &&
    typeof value.createdAt === 'string'
  );
}

/** The shape check a loaded message must pass to be sent again: a history role and content of the right kind. */
export function isModelMessage(value: unknown): value is ModelMessage {
  if (!isRecord(value)) return false;
  if (value.role === 'user' || value.role === 'assistant') {
    return typeof value.content === 'string' || (Array.isArray(value.content) && value.content.every(isSafePart));
  }
  return value.role === 'tool' && Array.isArray(value.content) && value.content.every(isSafePart);
}

/**
 * A content part that can be sent again as it is: a typed record whose text is text and whose image
 * or file data is inline (base64 or a data: URL). A part pointing at a URL — `file:///etc/passwd`,
 * or any address the SDK would fetch — makes the line damaged, so it is skipped with a warning.
 */
function isSafePart(part: unknown): boolean {
  if (!isRecord(part) || typeof part.type !== 'string') return false;
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return typeof part.text === 'string';
    case 'image':
      return isInlineData(part.image);
    case 'file':
      return isInlineData(part.data) && typeof part.mediaType === 'string';
    case 'tool-call':
    case 'tool-result':
      return typeof part.toolCallId === 'string' && typeof part.toolName === 'string';
    default:
      return true;
  }
}

function isInlineData(data: unknown): boolean {
  if (typeof data !== 'string') return false;
  // A scheme ("file:", "http:") means a reference to fetch; only data: URLs carry the bytes themselves.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(data)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === 'data';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
