/** Where the bytes of a recorded file are kept. */
export type ContentSource = { in: 'blobs' } | { in: 'shadow'; commit: string };

/** A workspace path as it was at one moment: absent, a file (its bytes by hash), or a symbolic link. */
export type FileState =
  | { kind: 'absent' }
  | { kind: 'file'; mode: number; sha256: string; size: number; source: ContentSource }
  | { kind: 'link'; target: string };

/** One change a tool made: the path before and after it. */
export interface FileChange {
  /** Workspace-relative, `/`-separated. */
  path: string;
  before: FileState;
  after: FileState;
  /** The tool that made it. */
  by: string;
}

/** One user turn of the session, as /undo and /rewind know it. */
export interface TurnRecord {
  /** 1, 2, 3… in the session. */
  id: number;
  /** ISO 8601. */
  startedAt: string;
  /** The first words of the user's message, on one line. */
  words: string;
  /** sha256 of the message text: the conversation is rewound only to a point that is still the same message. */
  textHash: string;
  /** Messages in the history before this turn's user message. */
  messageCount: number;
  /** In the order they were made. */
  changes: FileChange[];
  /** Its changes were reversed by /undo or /rewind. */
  undone: boolean;
  /** Dropped to keep within the bounds: its changes can no longer be reversed. */
  dropped?: boolean;
  /** Shadow snapshots this turn's changes read from (names under refs/sylvan/). */
  snapshots: string[];
}

/** What is saved in `$SYLVAN_HOME/checkpoints/<session>/index.json`. */
export interface CheckpointIndex {
  version: 1;
  turns: TurnRecord[];
  /** Turn ids that /redo can take back, the most recent undo last. */
  redo: number[];
  /** The next snapshot name's number. */
  nextSnapshot: number;
}

/** Size and count limits; the oldest checkpoints go first. */
export interface CheckpointBounds {
  /** Turns with changes whose checkpoints are kept. */
  maxTurns: number;
  /** Bytes of file contents and shadow objects together. */
  maxBytes: number;
  /** A single file bigger than this is not kept (its change cannot be undone, and the user is told). */
  maxFileBytes: number;
}

export const DEFAULT_BOUNDS: CheckpointBounds = { maxTurns: 50, maxBytes: 200 * 1024 * 1024, maxFileBytes: 20 * 1024 * 1024 };
