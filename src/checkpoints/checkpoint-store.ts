import { constants, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../shared/atomic-write.ts';
import type { CheckpointIndex, FileState, TurnRecord } from './checkpoint-types.ts';

/** `$SYLVAN_HOME/checkpoints/<session id>/`: the folder of one session's checkpoints. */
export function checkpointFolder(home: string, sessionId: string): string {
  return path.join(home, 'checkpoints', sessionId);
}

const emptyIndex = (): CheckpointIndex => ({ version: 1, turns: [], redo: [], nextSnapshot: 1 });

/** Turns appended to `index.log` before the whole index is written again and the log started afresh. */
const LOG_LINES = 100;

/** One line of `index.log`: a turn as it is now, and the index's small fields with it. */
interface LogLine {
  generation: number;
  turn: TurnRecord;
  redo: number[];
  nextSnapshot: number;
}

/**
 * One session's checkpoints on disk: `index.json` (the turns and what each changed), `index.log`
 * (turns saved since, one JSON line each) and `blobs/<sha256>` (file contents, stored once however
 * many turns name them), created 0700/0600. Writing the index is atomic; a log line is appended
 * and fsynced, so a turn costs the same at turn 300 as at turn 1. A log line belongs to the index
 * of its generation only: one left behind by a crash during a rewrite is not applied over newer
 * state. A missing or damaged index reads as an empty one, a damaged log line (cut off) as absent.
 */
export class CheckpointStore {
  readonly index: CheckpointIndex;
  private readonly blobs: string;
  private generation: number;
  private logLines: number;
  private indexWritten: boolean;
  private wholeDue = false;

  constructor(readonly folder: string) {
    this.blobs = path.join(folder, 'blobs');
    const read = readIndex(path.join(folder, 'index.json'), path.join(folder, 'index.log'));
    this.index = read.index;
    this.generation = read.generation;
    this.logLines = read.logLines;
    this.indexWritten = read.found;
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

  /** Other turns than the one saved next changed (dropped, lost): the next save writes the whole index. */
  changedMany(): void {
    this.wholeDue = true;
  }

  /**
   * Saves the index. With `turn`, when it is the only turn changed since the last save, one line
   * (the turn, the redo list and the snapshot counter) is appended to the log and fsynced;
   * otherwise — no index yet, a long log, other turns changed, a save failed — the whole index is
   * written (atomically) and the log started afresh.
   */
  async save(turn?: TurnRecord): Promise<void> {
    const whole = turn === undefined || this.wholeDue || !this.indexWritten || this.logLines >= LOG_LINES;
    // Until this save is done, a failure (a log line half written) leaves the next one to write it all.
    this.wholeDue = true;
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    // The atomic write wants the folder's real path (it refuses one that changes under it).
    const folder = realpathSync(this.folder);
    if (whole) await this.writeIndex(folder);
    else await this.appendToLog(folder, turn);
    this.wholeDue = false;
  }

  private async writeIndex(folder: string): Promise<void> {
    const generation = this.generation + 1;
    await writeFileAtomic(path.join(folder, 'index.json'), `${JSON.stringify({ ...this.index, generation })}\n`, { mode: 0o600 });
    this.generation = generation;
    this.indexWritten = true;
    this.logLines = 0;
    await unlink(path.join(folder, 'index.log')).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  private async appendToLog(folder: string, turn: TurnRecord): Promise<void> {
    const line: LogLine = { generation: this.generation, turn, redo: this.index.redo, nextSnapshot: this.index.nextSnapshot };
    const handle = await open(path.join(folder, 'index.log'), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(line)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.logLines++;
  }

  turn(id: number): TurnRecord | undefined {
    return this.index.turns.find((turn) => turn.id === id);
  }
}

function isBlob(state: FileState): state is Extract<FileState, { kind: 'file' }> {
  return state.kind === 'file' && state.source.in === 'blobs';
}

function readIndex(file: string, logFile: string): { index: CheckpointIndex; generation: number; logLines: number; found: boolean } {
  let index = emptyIndex();
  let generation = 0;
  let found = false;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<CheckpointIndex> & { generation?: unknown };
    if (value.version === 1 && Array.isArray(value.turns)) {
      index = { version: 1, turns: value.turns, redo: Array.isArray(value.redo) ? value.redo : [], nextSnapshot: Number(value.nextSnapshot) || 1 };
      generation = Number(value.generation) || 0;
      found = true;
    }
  } catch {
    // No index (or a damaged one): the session's checkpoints start empty.
  }
  let logLines = 0;
  const lines = readLines(logFile);
  for (const line of lines) {
    const entry = parseLogLine(line);
    if (!entry || entry.generation !== generation) continue;
    const at = index.turns.findIndex((turn) => turn.id === entry.turn.id);
    if (at >= 0) index.turns[at] = entry.turn;
    else if (entry.turn.id > (index.turns.at(-1)?.id ?? 0)) index.turns.push(entry.turn);
    else continue;
    index.redo = entry.redo;
    index.nextSnapshot = Math.max(index.nextSnapshot, entry.nextSnapshot);
    logLines++;
  }
  // A line cut off by a crash would swallow the next one appended: the next save rewrites the whole index.
  if (lines.at(-1) !== '' && lines.length > 0) logLines = LOG_LINES;
  return { index, generation, logLines, found };
}

/** The log's lines; the last is '' when the log ends whole. */
function readLines(file: string): string[] {
  try {
    const text = readFileSync(file, 'utf8');
    return text === '' ? [] : text.split('\n');
  } catch {
    return [];
  }
}

function parseLogLine(line: string): LogLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<LogLine>;
    const turn = value.turn;
    if (typeof value.generation !== 'number' || typeof turn !== 'object' || turn === null || typeof turn.id !== 'number' || !Array.isArray(turn.changes)) return undefined;
    if (!Array.isArray(value.redo) || typeof value.nextSnapshot !== 'number') return undefined;
    return value as LogLine;
  } catch {
    return undefined;
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
    kept.push({ id, usedAt: Math.max(modifiedAt(path.join(root, id, 'index.json')), modifiedAt(path.join(root, id, 'index.log'))) });
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
