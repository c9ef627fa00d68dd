import type { CheckpointStore } from './checkpoint-store.ts';
import type { CheckpointBounds } from './checkpoint-types.ts';
import type { ShadowRepository } from './shadow-repository.ts';
import { digits } from '../shared/text/count-text.ts';

/**
 * Drops the oldest turns' checkpoints past the count or byte limit (file contents and shadow
 * objects together), one turn at a time, each said through `tell`; the newest turn with changes
 * always stays. A dropped turn stays listed (for /rewind of the conversation) without changes.
 */
export async function keepWithinBounds(
  store: CheckpointStore,
  shadow: ShadowRepository,
  bounds: CheckpointBounds,
  tell: (notice: string) => void,
): Promise<void> {
  const kept = () => store.index.turns.filter((turn) => !turn.dropped && turn.changes.length > 0);
  const dropOldest = async (why: string): Promise<boolean> => {
    const all = kept();
    if (all.length <= 1) return false;
    const oldest = all[0]!;
    oldest.dropped = true;
    oldest.changes = [];
    await shadow.drop(oldest.snapshots);
    oldest.snapshots = [];
    store.index.redo = store.index.redo.filter((id) => id !== oldest.id);
    store.collectBlobs();
    tell(`(the checkpoint of turn ${oldest.id} "${oldest.words}" was dropped ${why}; its changes can no longer be undone)`);
    store.changedMany();
    return true;
  };
  while (kept().length > bounds.maxTurns) {
    if (!(await dropOldest(`to keep the last ${bounds.maxTurns} turns`))) break;
  }
  const limit = bounds.maxBytes >= 1024 * 1024 ? `${Math.round(bounds.maxBytes / (1024 * 1024))} MB` : `${digits(bounds.maxBytes)} bytes`;
  while (store.blobBytes() + (await shadow.sizeBytes()) > bounds.maxBytes) {
    if (!(await dropOldest(`to keep checkpoints under ${limit}`))) break;
  }
}
