import type { FileChange, FileState } from './checkpoint-types.ts';
import { sha256 } from './file-state.ts';
import type { ShadowRepository, SnapshotChange, SnapshotTaken } from './shadow-repository.ts';

/** What a command changed that a checkpoint holds, and the files it changed that were too big to keep. */
export interface CommandChanges {
  changes: FileChange[];
  /** Paths over the per-file limit on either side that the command created, changed or deleted. */
  notKept: { path: string; size: number }[];
}

/**
 * What a command changed, file by file, between the shadow snapshots taken before and after it:
 * each path's state on both sides (its exact mode, which git alone does not keep), its bytes left
 * in the shadow repository (read back on undo). A file too big to keep on either side is left out
 * of the changes (undo must not touch what it cannot put back) and listed in `notKept`.
 */
export async function changesBetween(shadow: ShadowRepository, before: SnapshotTaken, after: SnapshotTaken, toolName: string): Promise<CommandChanges> {
  const differences = await shadow.changes(before.commit, after.commit);
  const listed = new Set(differences.map((change) => change.path));
  // A chmod from 0600 to 0640 keeps git's mode (0644) and the same bytes: git sees no change.
  const modeOnly = [...new Set([...before.modes.keys(), ...after.modes.keys()])].filter((path) => !listed.has(path) && before.modes.get(path) !== after.modes.get(path));
  if (modeOnly.length > 0) {
    const [was, now] = await Promise.all([shadow.entries(before.commit, modeOnly), shadow.entries(after.commit, modeOnly)]);
    for (const path of modeOnly) {
      const [old, current] = [was.get(path), now.get(path)];
      if (old && current && exactMode(old.mode, path, before) !== exactMode(current.mode, path, after)) {
        differences.push({ path, status: 'M', before: old, after: current });
      }
    }
  }
  const notKept: CommandChanges['notKept'] = [];
  for (const path of new Set([...before.tooBig.keys(), ...after.tooBig.keys()])) {
    const [old, current] = [before.tooBig.get(path), after.tooBig.get(path)];
    const same = old && current && old.size === current.size && old.changedAt === current.changedAt && old.inode === current.inode;
    if (!same) notKept.push({ path, size: (current ?? old)!.size });
  }
  const tooBig = new Set(notKept.map((entry) => entry.path));
  const kept = differences.filter((change) => !tooBig.has(change.path));
  const contents = await shadow.blobs(kept.flatMap((change) => [change.before?.oid, change.after?.oid].filter((oid) => oid !== undefined)));
  const stateOf = (side: SnapshotChange['before'], path: string, snapshot: SnapshotTaken): FileState => {
    const bytes = side && contents.get(side.oid);
    if (!side || !bytes) return { kind: 'absent' };
    if (side.mode === 0o120000) return { kind: 'link', target: bytes.toString('utf8') };
    return { kind: 'file', mode: exactMode(side.mode, path, snapshot), sha256: sha256(bytes), size: bytes.length, source: { in: 'shadow', commit: snapshot.commit } };
  };
  return {
    changes: kept.map((change) => ({
      path: change.path,
      before: stateOf(change.before, change.path, before),
      after: stateOf(change.after, change.path, after),
      by: toolName,
    })),
    notKept,
  };
}

/** The file's mode as it was on disk: the one the snapshot noted, else what git's mode stands for. */
function exactMode(gitMode: number, path: string, snapshot: SnapshotTaken): number {
  return snapshot.modes.get(path) ?? (gitMode === 0o100755 ? 0o755 : 0o644);
}
