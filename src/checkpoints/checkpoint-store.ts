import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../tools/files/atomic-write.ts';
import type { CheckpointIndex, FileState, TurnRecord } from './checkpoint-types.ts';

/** `$SYLVAN_HOME/checkpoints/<session id>/`: the folder of one session's checkpoints. */
export function checkpointFolder(home: string, sessionId: string): string {
  return path.join(home, 'checkpoints', sessionId);
}

const emptyIndex = (): CheckpointIndex => ({ version: 1, turns: [], redo: [], nextSnapshot: 1 });

/**
 * One session's checkpoints on disk: `index.json` (the turns and what each changed) and
 * `blobs/<sha256>` (file contents, stored once however many turns name them), created 0700/0600.
 * Saving is atomic; a missing or damaged index reads as an empty one.
 */
export class CheckpointStore {
  readonly index: CheckpointIndex;
  private readonly blobs: string;

  constructor(readonly folder: string) {
    this.blobs = path.join(folder, 'blobs');
    this.index = readIndex(path.join(folder, 'index.json'));
  }

  get shadowGitDir(): string {
    return path.join(this.folder, 'shadow.git');
  }

  /** Keeps `bytes` under their hash (once); a write cut short (a full disk) leaves no blob behind. Throws what the write met. */
  putBlob(hash: string, bytes: Buffer): void {
    mkdirSync(this.blobs, { recursive: true, mode: 0o700 });
    const file = path.join(this.blobs, hash);
    if (existsSync(file)) return;
    const temp = `${file}.${process.pid}.partial`;
    try {
      writeFileSync(temp, bytes, { mode: 0o600 });
      renameSync(temp, file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  readBlob(hash: string): Promise<Buffer> {
    return readFile(path.join(this.blobs, hash));
  }

  /** Removes the blobs no kept turn names any more; resolves with the bytes freed. */
  collectBlobs(): number {
    const named = new Set<string>();
    for (const turn of this.index.turns) {
      for (const change of turn.changes) for (const state of [change.before, change.after]) if (isBlob(state)) named.add(state.sha256);
    }
    let freed = 0;
    for (const name of listOrEmpty(this.blobs)) {
      if (named.has(name)) continue;
      const file = path.join(this.blobs, name);
      freed += sizeOrZero(file);
      rmSync(file, { force: true });
    }
    return freed;
  }

  blobBytes(): number {
    return listOrEmpty(this.blobs).reduce((total, name) => total + sizeOrZero(path.join(this.blobs, name)), 0);
  }

  async save(): Promise<void> {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    // The atomic write wants the folder's real path (it refuses one that changes under it).
    await writeFileAtomic(path.join(realpathSync(this.folder), 'index.json'), `${JSON.stringify(this.index)}\n`, { mode: 0o600 });
  }

  turn(id: number): TurnRecord | undefined {
    return this.index.turns.find((turn) => turn.id === id);
  }
}

function isBlob(state: FileState): state is Extract<FileState, { kind: 'file' }> {
  return state.kind === 'file' && state.source.in === 'blobs';
}

function readIndex(file: string): CheckpointIndex {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<CheckpointIndex>;
    if (value.version !== 1 || !Array.isArray(value.turns)) return emptyIndex();
    return { version: 1, turns: value.turns, redo: Array.isArray(value.redo) ? value.redo : [], nextSnapshot: Number(value.nextSnapshot) || 1 };
  } catch {
    return emptyIndex();
  }
}

function listOrEmpty(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function sizeOrZero(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Sessions whose checkpoints are kept; older sessions' go (their transcripts stay). */
export const KEPT_SESSIONS = 20;

/**
 * Removes the checkpoints of sessions whose transcript is gone, and of all but the `KEPT_SESSIONS`
 * most recently used; `current` always stays. Resolves with how many sessions' checkpoints went
 * for the second reason (worth telling). Never throws.
 */
export function pruneOtherSessions(home: string, current: string): number {
  const root = path.join(home, 'checkpoints');
  const sessions = path.join(home, 'sessions');
  const others = listOrEmpty(root).filter((id) => id !== current);
  const kept: { id: string; usedAt: number }[] = [];
  for (const id of others) {
    if (!existsSync(path.join(sessions, `${id}.jsonl`))) {
      rmSync(path.join(root, id), { recursive: true, force: true });
      continue;
    }
    kept.push({ id, usedAt: modifiedAt(path.join(root, id, 'index.json')) });
  }
  const old = kept.sort((a, b) => b.usedAt - a.usedAt).slice(KEPT_SESSIONS - 1);
  for (const { id } of old) rmSync(path.join(root, id), { recursive: true, force: true });
  return old.length;
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
