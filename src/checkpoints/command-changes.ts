import type { FileChange, FileState } from './checkpoint-types.ts';
import { sha256 } from './file-state.ts';
import type { ShadowRepository } from './shadow-repository.ts';

/**
 * What a command changed, file by file, between the shadow snapshots taken before and after it:
 * each path's state on both sides, its bytes left in the shadow repository (read back on undo).
 * Two git processes whatever the number of files.
 */
export async function changesBetween(shadow: ShadowRepository, before: string, after: string, toolName: string): Promise<FileChange[]> {
  const differences = await shadow.changes(before, after);
  const contents = await shadow.blobs(differences.flatMap((change) => [change.before?.oid, change.after?.oid].filter((oid) => oid !== undefined)));
  const stateOf = (side: { mode: number; oid: string } | undefined, commit: string): FileState => {
    const bytes = side && contents.get(side.oid);
    if (!side || !bytes) return { kind: 'absent' };
    if (side.mode === 0o120000) return { kind: 'link', target: bytes.toString('utf8') };
    // Git keeps only the executable bit.
    const mode = side.mode === 0o100755 ? 0o755 : 0o644;
    return { kind: 'file', mode, sha256: sha256(bytes), size: bytes.length, source: { in: 'shadow', commit } };
  };
  return differences.map((change) => ({
    path: change.path,
    before: stateOf(change.before, before),
    after: stateOf(change.after, after),
    by: toolName,
  }));
}
