import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import type { ModelMessage } from 'ai';
import { stringifyBounded } from '../shared/bounded-json.ts';
import type { TokenUsage } from '../shared/token-usage.ts';
import type { TodoItem } from '../tools/todo/todo-list.ts';
import { forTranscript } from '../agent/loop/image-parts.ts';
import { redactSecrets } from '../shared/redact-secrets.ts';
import { SESSION_FORMAT_VERSION, type HookEntry, type SessionEntry, type SessionMeta, type SubagentLink } from './session-entry.ts';
import { makeFolders, reasonOf } from './session-home.ts';
import { acquireSessionLock } from './session-lock.ts';
import { createSessionId, sessionPath, sessionsDirectory } from './session-paths.ts';

/** Appends to one transcript. Every method returns normally; failures land in `lastError`. */
export interface SessionWriter {
  readonly id: string;
  readonly path: string;
  /** The last failure to save (disk full, folder removed…); the conversation goes on regardless. */
  readonly lastError: Error | undefined;
  /** Appends one history message as one line, synchronously (a picture in it as a note: `forTranscript`). */
  appendMessage(message: ModelMessage): void;
  /** Records a /compact: later loads replace every earlier message with `replacement`. */
  appendCompaction(replacement: ModelMessage[]): void;
  /** Records the provider-reported usage of a turn (summed by `loadSession`). */
  appendUsage(usage: TokenUsage, cost?: { amount: number; currency: string }): void;
  /** Records the model's todo list as it is now (the last one is restored on load). */
  appendTodo(items: readonly TodoItem[]): void;
  /** Records what the user's hooks decided at one event. */
  appendHook(entry: Omit<HookEntry, 'type'>): void;
  /** Records one message of a subagent's conversation, linked to the `task` call that started it. */
  appendSubagentMessage(link: SubagentLink, message: ModelMessage): void;
  /** Closes the file. A session this writer created and never appended to is deleted, not left empty. */
  close(): void;
}

export interface CreateSessionOptions {
  /** $SYLVAN_HOME (the caller resolves the ~/.sylvan default). */
  home: string;
  cwd: string;
  provider: string;
  model: string;
  /** The git branch the session starts on (`readGitBranch`), shown by the /resume picker. */
  branch?: string;
  now?: () => Date;
  /** Keys scrubbed from every line before it is written (an error echoing the key is saved without it). */
  secrets?: readonly string[];
}

/**
 * Starts a new transcript at `$SYLVAN_HOME/sessions/<id>.jsonl` (folder created with mode 0700, file
 * 0600) and writes its meta line. Never throws: if the folder or file cannot be created, the writer
 * reports it in `lastError` and its appends do nothing.
 */
export function createSession(options: CreateSessionOptions): SessionWriter {
  const now = options.now ?? (() => new Date());
  const createdAt = now();
  const id = createSessionId(createdAt);
  const path = sessionPath(options.home, id);
  const meta: SessionMeta = {
    type: 'meta',
    version: SESSION_FORMAT_VERSION,
    id,
    cwd: options.cwd,
    provider: options.provider,
    model: options.model,
    createdAt: createdAt.toISOString(),
    ...(options.branch !== undefined && { branch: options.branch }),
  };
  let release: (() => void) | undefined;
  try {
    makeFolders(sessionsDirectory(options.home));
    release = acquireSessionLock(lockPathOf(path), id);
    const writer = new FileSessionWriter(id, path, openSync(path, 'a', 0o600), true, options.secrets, release);
    writer.write(meta);
    return writer;
  } catch (error) {
    release?.();
    return FileSessionWriter.failed(id, path, error);
  }
}

/**
 * Continues an existing transcript (for --continue / --resume), holding its lock file so that no
 * second process appends to it at the same time. Throws a readable Error for an invalid id or a
 * session that does not exist, and `SessionLockedError` when another running Sylvan holds it; any
 * other failure is reported in `lastError`.
 */
export function openSessionForAppend(home: string, id: string, options: { secrets?: readonly string[] } = {}): SessionWriter {
  const path = sessionPath(home, id);
  if (!existsSync(path)) throw new Error(`There is no session "${id}" in ${sessionsDirectory(home)}.`);
  let release: (() => void) | undefined;
  try {
    release = acquireSessionLock(lockPathOf(path), id);
  } catch (error) {
    if ((error as Error).name === 'SessionLockedError') throw error;
    return FileSessionWriter.failed(id, path, error);
  }
  try {
    const fd = openSync(path, 'a+', 0o600);
    const writer = new FileSessionWriter(id, path, fd, false, options.secrets, release);
    // A line cut off by a crash must not swallow the next entry.
    writer.needsNewline = !endsWithNewline(fd);
    return writer;
  } catch (error) {
    release();
    return FileSessionWriter.failed(id, path, error);
  }
}

/** `<id>.jsonl` → `<id>.lock`, next to it. */
function lockPathOf(sessionFile: string): string {
  return sessionFile.replace(/\.jsonl$/, '.lock');
}

function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

class FileSessionWriter implements SessionWriter {
  lastError: Error | undefined;
  needsNewline = false;
  #fd: number | undefined;
  #entriesAfterMeta = 0;

  constructor(
    readonly id: string,
    readonly path: string,
    fd: number | undefined,
    private readonly createdHere: boolean,
    private readonly secrets: readonly string[] = [],
    private readonly releaseLock: () => void = () => {},
  ) {
    this.#fd = fd;
  }

  static failed(id: string, path: string, error: unknown): FileSessionWriter {
    const writer = new FileSessionWriter(id, path, undefined, false);
    writer.lastError = toError(error, `Could not save the session to ${path}`);
    return writer;
  }

  appendMessage(message: ModelMessage): void {
    this.#append({ type: 'message', message: forTranscript(message) });
  }

  appendCompaction(replacement: ModelMessage[]): void {
    this.#append({ type: 'compaction', messages: replacement.map(forTranscript) });
  }

  appendUsage(usage: TokenUsage, cost?: { amount: number; currency: string }): void {
    this.#append({ type: 'usage', usage, ...(cost && { cost: cost.amount, currency: cost.currency }) });
  }

  appendTodo(items: readonly TodoItem[]): void {
    this.#append({ type: 'todo', items: [...items] });
  }

  appendHook(entry: Omit<HookEntry, 'type'>): void {
    this.#append({ type: 'hook', ...entry });
  }

  appendSubagentMessage(link: SubagentLink, message: ModelMessage): void {
    this.#append({ type: 'subagent-message', ...link, message: forTranscript(message) });
  }

  close(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
      if (this.createdHere && this.#entriesAfterMeta === 0) unlinkSync(this.path);
    } catch (error) {
      this.lastError = toError(error, `Could not close the session file ${this.path}`);
    }
    this.#fd = undefined;
    this.releaseLock();
  }

  #append(entry: SessionEntry): void {
    if (this.#fd === undefined) return;
    this.write(entry);
    this.#entriesAfterMeta++;
  }

  /** Writes one entry as one line with a single write; never throws. */
  write(entry: SessionEntry): void {
    const fd = this.#fd;
    if (fd === undefined) return;
    let line: string;
    try {
      line = `${this.needsNewline ? '\n' : ''}${redactSecrets(stringifyBounded(entry), this.secrets)}\n`;
    } catch (error) {
      this.lastError = toError(error, 'Could not save a message (it cannot be written as JSON)');
      return;
    }
    let sizeBefore: number | undefined;
    try {
      const bytes = Buffer.from(line, 'utf8');
      sizeBefore = fstatSync(fd).size;
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      this.needsNewline = false;
      if (fstatSync(fd).nlink === 0) {
        this.lastError = new Error(`The session file ${this.path} was deleted; this conversation is no longer being saved.`);
        closeSync(fd);
        this.#fd = undefined;
      }
    } catch (error) {
      this.lastError = toError(error, `Could not save the session to ${this.path}`);
      // A full disk must not leave half a line: cut back to the last whole one.
      try {
        if (sizeBefore === undefined) throw error;
        ftruncateSync(fd, sizeBefore);
      } catch {
        this.needsNewline = true;
      }
    }
  }
}

function toError(error: unknown, context: string): Error {
  return new Error(`${context}: ${reasonOf(error)}`, { cause: error });
}
