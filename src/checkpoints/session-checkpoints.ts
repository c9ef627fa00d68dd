import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { ModelMessage } from 'ai';
import { redactSecrets } from '../shared/redact-secrets.ts';
import { isSecretPath } from '../shared/workspace-path.ts';
import { CheckpointStore, checkpointFolder, KEPT_SESSIONS, pruneOtherSessions } from './checkpoint-store.ts';
import { DEFAULT_BOUNDS, type CheckpointBounds, type FileChange, type FileState, type TurnRecord } from './checkpoint-types.ts';
import { keepWithinBounds } from './checkpoint-bounds.ts';
import { ChangeLocks } from './change-locks.ts';
import { notRun, reasonOf } from './checkpoint-failures.ts';
import { changesBetween } from './command-changes.ts';
import { observe, sameFileState, type Observed } from './file-state.ts';
import { OpenRecordings } from './open-recordings.ts';
import { restoreChanges, type ConflictResolver, type RestoreLine } from './restore.ts';
import { ShadowRepository, type SnapshotTaken } from './shadow-repository.ts';
import { UndoableCommands } from './undoable-commands.ts';
import type { FinishRecording } from '../tools/with-checkpoints.ts';
import { digits } from '../shared/text/count-text.ts';

export interface SessionCheckpointsOptions {
  /** $SYLVAN_HOME. */
  home: string;
  sessionId: string;
  workspaceRoot: string;
  secretPatterns?: readonly string[];
  /** Keys never written, not even in the first words of a message. */
  secrets?: readonly string[];
  bounds?: Partial<CheckpointBounds>;
  now?: () => Date;
}

/** Finishes a recording once the tool has run: what the path (or the workspace) is now. */

const WORDS_SHOWN = 60;

/**
 * The checkpoints of one session: before a tool changes the workspace, what it will change is
 * recorded (a file's bytes and mode or its absence; for a command, a shadow-repository snapshot
 * of the workspace), so `/undo`, `/redo` and `/rewind` can put it back. Kept under
 * `$SYLVAN_HOME/checkpoints/<session>/`, so a continued session can still undo. Secret files
 * (the `read_file` rules) never enter a checkpoint. Bounded in count and bytes, oldest first,
 * each drop told through `takeNotices`; a file over the per-file limit is not kept, and told.
 * A checkpoint that cannot be taken (a full disk, a FIFO git would wait on…) stops the change
 * before it runs: the recording rejects with the reason, and the tool does not run. Changes of
 * the same file, and commands, take turns (`ChangeLocks`), so each is recorded whole.
 */
export class SessionCheckpoints {
  private readonly store: CheckpointStore;
  private readonly bounds: CheckpointBounds;
  private readonly root: string;
  private readonly notices: string[] = [];
  private readonly shadow: ShadowRepository;
  /** Whether what commands change can be undone here, and the line that says it cannot. */
  readonly commands: UndoableCommands;
  private prunedOthers = false;
  /** The turn's start: its record saved and other sessions' checkpoints tidied (once a session). */
  private started: Promise<unknown> = Promise.resolve();
  private current: TurnRecord | undefined;
  private commandLinesTurn: TurnRecord | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly locks = new ChangeLocks();
  private readonly recordings = new OpenRecordings();

  constructor(private readonly options: SessionCheckpointsOptions) {
    this.store = new CheckpointStore(checkpointFolder(options.home, options.sessionId));
    this.bounds = { ...DEFAULT_BOUNDS, ...options.bounds };
    this.root = realOrSelf(options.workspaceRoot);
    this.commands = new UndoableCommands(this.root);
    const home = realOrSelf(options.home);
    const homeInside = path.relative(this.root, home);
    const homePrefix = homeInside.startsWith('..') || path.isAbsolute(homeInside) ? undefined : homeInside.split(path.sep).join('/');
    this.shadow = new ShadowRepository(this.store.shadowGitDir, this.root, (relative) =>
      this.isSecret(relative) || (homePrefix !== undefined && (homePrefix === '' || relative === homePrefix || relative.startsWith(`${homePrefix}/`))),
    );
  }

  get turns(): readonly TurnRecord[] {
    return this.store.index.turns;
  }

  /** The turn /undo would reverse: the latest with changes not yet undone. */
  get undoable(): TurnRecord | undefined {
    return this.turns.findLast((turn) => !turn.undone && !turn.dropped && turn.changes.length > 0);
  }

  /** The turn /redo would take back. */
  get redoable(): TurnRecord | undefined {
    const id = this.store.index.redo.at(-1);
    return id === undefined ? undefined : this.store.turn(id);
  }

  /** One line each: checkpoints dropped, commands that cannot be undone, checkpoints that could not be taken. */
  takeNotices(): string[] {
    return this.notices.splice(0);
  }

  /**
   * Starts a turn: its changes are recorded under it. `messageCount` is the history's length before
   * its message. A custom command's `!` lines (`command-lines`) begin a turn named after it; the
   * message they lead to joins that turn (one turn in /rewind, not two).
   */
  beginTurn(text: string, messageCount: number, kind: 'message' | 'command-lines' | 'command' = 'message'): void {
    const joined = this.commandLinesTurn;
    this.commandLinesTurn = undefined;
    if (kind === 'message' && joined && joined === this.current && joined.messageCount === messageCount) {
      joined.textHash = hashText(text);
      return void this.enqueue(() => this.store.save());
    }
    const oneLine = redactSecrets(text, this.options.secrets ?? []).replace(/\s+/g, ' ').trim();
    const words = oneLine.length > WORDS_SHOWN ? `${oneLine.slice(0, WORDS_SHOWN - 1)}…` : oneLine;
    const id = (this.turns.at(-1)?.id ?? 0) + 1;
    const turn: TurnRecord = (this.current = {
      id,
      startedAt: (this.options.now?.() ?? new Date()).toISOString(),
      words,
      textHash: hashText(text),
      messageCount,
      changes: [],
      undone: false,
      snapshots: [],
    });
    this.store.index.turns.push(turn);
    if (kind === 'command-lines') this.commandLinesTurn = turn;
    this.started = this.enqueue(async () => {
      await this.saveOrTell(turn);
      if (this.prunedOthers) return;
      this.prunedOthers = true;
      try {
        const removed = pruneOtherSessions(this.options.home, this.options.sessionId);
        if (removed > 0) this.notices.push(`(checkpoints of ${removed} older session${removed === 1 ? '' : 's'} removed: Sylvan keeps those of the last ${KEPT_SESSIONS} sessions)`);
      } catch {
        // Tidying other sessions' checkpoints is worth a try, not a failure.
      }
    });
  }

  /**
   * Records `relativePath` as it is (its bytes and mode, or its absence) before a file tool writes
   * it, once no other change of that file or command is under way; the returned function records
   * it after, and lets the next change go. A secret path records nothing. Rejects, the change
   * not to be made, when the checkpoint cannot be kept.
   */
  beforeFileChange(relativePath: string, toolName: string): Promise<FinishRecording> {
    return this.recordings.track(() => this.recordFileChange(relativePath, toolName));
  }

  private async recordFileChange(relativePath: string, toolName: string): Promise<FinishRecording> {
    const release = await this.locks.file(relativePath);
    if (this.isSecret(relativePath)) return async () => release();
    const absolutePath = path.join(this.root, relativePath);
    const turn = this.turnForChange();
    let before: FileState | undefined;
    try {
      before = await this.enqueue(() => this.keep(relativePath, observe(absolutePath, this.bounds.maxFileBytes)));
    } catch (error) {
      release();
      throw notRun(error);
    }
    return async () => {
      try {
        await this.enqueue(async () => {
          // Undo needs only the bytes from before; the change is recorded even when those after cannot be kept.
          const after = await this.keep(relativePath, observe(absolutePath, this.bounds.maxFileBytes), 'after');
          if (before === undefined || after === undefined) return;
          if (sameFileState(before, after)) return;
          this.addChanges(turn, [{ path: relativePath, before, after, by: toolName }]);
          await this.keepWithinBoundsAndSave(turn);
        });
      } finally {
        release();
      }
    };
  }

  /**
   * Takes a shadow snapshot before a command runs, once every change started before it is done;
   * the returned function takes another after it, records every file that differs, and lets the
   * next change go. Outside a git work tree it says once that commands cannot be undone, and
   * records nothing. Rejects, the command not to be run, when the snapshot cannot be taken.
   */
  beforeCommand(toolName: string): Promise<FinishRecording> {
    return this.recordings.track(() => this.recordCommand(toolName));
  }

  private async recordCommand(toolName: string): Promise<FinishRecording> {
    const release = await this.locks.command();
    try {
      if (!(await this.commands.undoable())) {
        const notice = this.commands.noticeAfter();
        if (notice) this.notices.push(notice);
        return async () => release();
      }
      const turn = this.turnForChange();
      const before = await this.enqueue(() => this.snapshot());
      return async () => {
        try {
          await this.enqueue(async () => {
            const after = await this.snapshot().catch((error: Error) => {
              this.notices.push(`(no checkpoint could be taken after the command, so /undo cannot reverse it: ${reasonOf(error)})`);
              return undefined;
            });
            if (after === undefined) return;
            turn.snapshots.push(before.name, after.name);
            const found = await changesBetween(this.shadow, before.taken, after.taken, toolName).catch((error: Error) => {
              this.notices.push(`(the command's changes could not be recorded, so /undo cannot reverse them: ${reasonOf(error)})`);
              return { changes: [], notKept: [] };
            });
            for (const { path: file, size } of found.notKept) {
              this.notices.push(`(${file} is ${digits(size)} bytes, over the checkpoint limit of ${limitText(this.bounds.maxFileBytes)}: what the command did to it cannot be undone)`);
            }
            this.addChanges(turn, found.changes);
            await this.keepWithinBoundsAndSave(turn);
          });
        } finally {
          release();
        }
      };
    } catch (error) {
      release();
      throw notRun(error);
    }
  }

  /** Reverses a turn's changes, newest first; a file changed since by someone else is put back only if `resolve` says so. */
  async undo(turn: TurnRecord, resolve: ConflictResolver): Promise<RestoreLine[]> {
    return this.enqueue(async () => {
      const lines = await restoreChanges(turn.changes, 'undo', this.restoreContext(), resolve);
      turn.undone = true;
      this.store.index.redo = [...this.store.index.redo.filter((id) => id !== turn.id), turn.id];
      await this.saveOrTell();
      return lines;
    });
  }

  /** Makes an undone turn's changes again, oldest first. */
  async redo(turn: TurnRecord, resolve: ConflictResolver): Promise<RestoreLine[]> {
    return this.enqueue(async () => {
      const lines = await restoreChanges(turn.changes, 'redo', this.restoreContext(), resolve);
      turn.undone = false;
      this.store.index.redo = this.store.index.redo.filter((id) => id !== turn.id);
      await this.saveOrTell();
      return lines;
    });
  }

  /**
   * The history length to cut the conversation back to before `turn`, or undefined when the
   * history no longer holds that turn's message there (a /compact summarised it).
   */
  conversationPoint(turn: TurnRecord, messages: readonly ModelMessage[]): number | undefined {
    const message = messages[turn.messageCount];
    if (message?.role !== 'user') return undefined;
    const text = typeof message.content === 'string' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return hashText(text) === turn.textHash ? turn.messageCount : undefined;
  }

  /** Forgets `turn` and every later one (the conversation was rewound to before it). */
  async forgetFrom(turn: TurnRecord): Promise<void> {
    await this.enqueue(async () => {
      const index = this.store.index;
      const gone = index.turns.filter((candidate) => candidate.id >= turn.id);
      index.turns = index.turns.filter((candidate) => candidate.id < turn.id);
      index.redo = index.redo.filter((id) => id < turn.id);
      if (this.current && this.current.id >= turn.id) this.current = undefined;
      await this.shadow.drop(gone.flatMap((candidate) => candidate.snapshots), { latest: true });
      this.store.collectBlobs();
      await this.saveOrTell();
    });
  }

  /**
   * Waits for the last turn's start to be recorded, and so for its notice about other sessions'
   * checkpoints removed; not for the recordings of its calls (a stopped command may still be finishing).
   */
  async turnStarted(): Promise<void> {
    await this.started.catch(() => {});
  }

  /**
   * Waits for every recording begun so far (a stopped command's too, which may still be ending)
   * and the work queued after them, before a restore; false when `withinMs` passed first.
   */
  settled(withinMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    return this.recordings.closedWithin(withinMs, () => this.chain);
  }

  private isSecret(relativePath: string): boolean {
    return isSecretPath(relativePath, this.options.secretPatterns ?? []);
  }

  private turnForChange(): TurnRecord {
    if (!this.current) this.beginTurn('(changes made outside a turn)', 0);
    return this.current!;
  }

  private addChanges(turn: TurnRecord, changes: FileChange[]): void {
    if (changes.length === 0) return;
    turn.changes.push(...changes);
    // New changes start a new line of history: what was undone before cannot be redone over them.
    this.store.index.redo = [];
  }

  /**
   * The state of a path as a checkpoint keeps it, its bytes stored; undefined (and told) when it is
   * too big to keep. Throws when the bytes from before cannot be stored (a full disk): the change
   * must not be made. The bytes after are worth keeping for /redo only: that failure is told.
   */
  private async keep(relativePath: string, observing: Promise<Observed>, side: 'before' | 'after' = 'before'): Promise<FileState | undefined> {
    const observed = await observing;
    switch (observed.kind) {
      case 'absent':
      case 'link':
        return observed;
      case 'file':
        try {
          this.store.putBlob(observed.sha256, observed.bytes);
        } catch (error) {
          if (side === 'before') throw error;
          this.notices.push(`(the new bytes of ${relativePath} could not be kept, so /redo cannot make this change again after an /undo: ${reasonOf(error)})`);
        }
        return { kind: 'file', mode: observed.mode, sha256: observed.sha256, size: observed.bytes.length, source: { in: 'blobs' } };
      case 'too-big':
        this.notices.push(`(${relativePath} is ${digits(observed.size)} bytes, over the checkpoint limit: this change cannot be undone)`);
        return undefined;
      default:
        return undefined; // a folder or a device: the tool refuses to write it
    }
  }

  /** A shadow snapshot of the workspace; rejects when none can be taken. */
  private async snapshot(): Promise<{ name: string; taken: SnapshotTaken }> {
    if ((await this.shadow.prepare()) === 'created') this.forgetLostSnapshots();
    const name = `s${this.store.index.nextSnapshot++}`;
    return { name, taken: await this.shadow.snapshot(name, this.bounds.maxFileBytes) };
  }

  /** The shadow repository was deleted: the turns whose changes it held can no longer be undone, and that is said now. */
  private forgetLostSnapshots(): void {
    for (const turn of this.turns) {
      if (turn.dropped || turn.snapshots.length === 0) continue;
      turn.dropped = true;
      this.store.changedMany();
      turn.changes = [];
      turn.snapshots = [];
      this.store.index.redo = this.store.index.redo.filter((id) => id !== turn.id);
      this.notices.push(`(the checkpoint of turn ${turn.id} "${turn.words}" is gone: its shadow repository was deleted, so its changes can no longer be undone)`);
    }
  }

  private async keepWithinBoundsAndSave(turn: TurnRecord): Promise<void> {
    await keepWithinBounds(this.store, this.shadow, this.bounds, (notice) => this.notices.push(notice));
    await this.saveOrTell(turn);
  }

  private async saveOrTell(turn?: TurnRecord): Promise<void> {
    await this.store.save(turn).catch((error: Error) => {
      this.notices.push(`(the checkpoints could not be saved, so /undo works only until Sylvan exits: ${reasonOf(error)})`);
    });
  }

  private restoreContext() {
    return {
      root: this.root,
      read: async (state: Extract<FileState, { kind: 'file' }>, relativePath: string): Promise<Buffer> => {
        if (state.source.in === 'blobs') return this.store.readBlob(state.sha256);
        const entry = await this.shadow.read(state.source.commit, relativePath);
        if (!entry) throw new Error('its snapshot is missing');
        return entry.bytes;
      },
    };
  }

  /** Runs `work` after everything queued before it, so recordings and restores never interleave. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => {});
    return next;
  }
}

function limitText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${digits(bytes)} bytes`;
}

function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function realOrSelf(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}
