import { readFileSync, statSync } from 'node:fs';
import type { ModelMessage } from 'ai';
import { findUnansweredToolCalls, repairHistory } from '../agent/context/history-repair.ts';
import { addUsage, emptyUsage, type TokenUsage } from '../shared/token-usage.ts';
import type { TodoItem } from '../tools/todo/todo-list.ts';
import { parseEntry, SESSION_FORMAT_VERSION, type SessionMeta } from './session-entry.ts';
import { sessionPath, sessionsDirectory } from './session-paths.ts';


/** The running total of a session's spend, kept in its file. */
export interface SessionSpend {
  cost: number;
  currency?: string;
  requests: number;
}

export interface LoadedSession {
  meta: SessionMeta;
  /** The history to continue from: replayed, compactions applied, repaired (every tool call answered). */
  messages: ModelMessage[];
  /** Provider-reported usage summed over the session. */
  usage: TokenUsage;
  /** The model's todo list as the session left it (a /compact keeps it). */
  todo: TodoItem[];
  /** What the session's requests cost (in the currency of its latest priced request), and how many it made. */
  spend: SessionSpend;
  /** One line each, for the user: damaged lines skipped, a missing meta line. */
  warnings: string[];
  /**
   * Tool calls the file left without a result, now marked interrupted: the process ended while they
   * ran or were being asked about (a crash, a kill). A call the user stopped has its result on file.
   */
  unfinishedCalls: number;
}

/**
 * Replays `$SYLVAN_HOME/sessions/<id>.jsonl`. A damaged line or a last line cut off mid-write is
 * skipped with a warning, unknown entry types are skipped silently (a newer Sylvan wrote them), a
 * compaction replaces every earlier message, and the result goes through `repairHistory` so a
 * session killed mid-tool-call loads as a valid history. Throws a readable Error only for an invalid
 * id or a session that cannot be read at all.
 */
export function loadSession(home: string, id: string): LoadedSession {
  const path = sessionPath(home, id);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const reason = missing ? `there is no session "${id}" in ${sessionsDirectory(home)}` : String(error);
    throw new Error(`Could not open the session: ${reason}.`, { cause: error });
  }

  const warnings: string[] = [];
  let meta: SessionMeta | undefined;
  let messages: ModelMessage[] = [];
  let usage = emptyUsage();
  let todo: TodoItem[] = [];
  const spend: SessionSpend = { cost: 0, requests: 0 };
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const entry = parseEntry(line);
    if (entry === 'damaged') {
      const cutOff = index === lines.length - 1;
      warnings.push(
        cutOff
          ? `session ${id}: line ${index + 1} was cut off while being written and was skipped`
          : `session ${id}: line ${index + 1} is damaged and was skipped`,
      );
      return;
    }
    switch (entry?.type) {
      case 'meta':
        meta ??= entry;
        break;
      case 'message':
        messages.push(entry.message);
        break;
      case 'compaction':
        messages = [...entry.messages];
        break;
      case 'todo':
        todo = entry.items;
        break;
      case 'usage':
        spend.requests++;
        if (typeof entry.cost === 'number' && Number.isFinite(entry.cost) && entry.cost >= 0 && typeof entry.currency === 'string') {
          // A session that changed currency (another provider) counts from the change on.
          if (spend.currency !== undefined && spend.currency !== entry.currency) spend.cost = 0;
          spend.currency = entry.currency;
          spend.cost += entry.cost;
        }
        usage = addUsage(usage, {
          inputTokens: finiteOrZero(entry.usage.inputTokens),
          outputTokens: finiteOrZero(entry.usage.outputTokens),
          cachedInputTokens: finiteOrZero(entry.usage.cachedInputTokens),
          ...(entry.usage.explicitCachedInputTokens !== undefined && { explicitCachedInputTokens: finiteOrZero(entry.usage.explicitCachedInputTokens) }),
          ...(entry.usage.cacheCreationInputTokens !== undefined && { cacheCreationInputTokens: finiteOrZero(entry.usage.cacheCreationInputTokens) }),
        });
        break;
    }
  });

  if (meta === undefined) {
    warnings.push(`session ${id}: the session details (first line) are missing; folder, provider and model are unknown`);
    meta = { type: 'meta', version: SESSION_FORMAT_VERSION, id, cwd: '', provider: '', model: '', createdAt: modifiedAt(path) };
  }
  const unfinishedCalls = findUnansweredToolCalls(messages).length;
  return { meta, messages: repairHistory(messages), usage, todo, spend, warnings, unfinishedCalls };
}

function finiteOrZero(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function modifiedAt(path: string): string {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}
