import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long the session must have been idle after a turn before the heap is compacted. */
const IDLE_MS = 150;
/**
 * V8 gives back its young generation (grown to 32 MB by a burst of turns) only at a collection that
 * finds little allocated in the 5 s before it: a second collection this long after the first.
 */
const SHRINK_AFTER_MS = 6_000;

let collect: (() => void) | undefined;
let timer: NodeJS.Timeout | undefined;

/** V8's full collection, reached once without starting Node with --expose-gc. */
function fullCollection(): () => void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

/**
 * Called when a turn ends: a full collection runs once the session has stayed idle a moment, and
 * another once it has stayed idle a few seconds more. V8 collects on allocation, not on idleness,
 * so after a burst of turns the garbage of the last ones stays resident while the user reads, and
 * its young generation stays at its largest. Each pause is 15–20 ms (measured through a 300-turn
 * session), taken when nothing is streaming; `npm run bench -- long` shows the memory.
 */
export function collectWhenIdle(): void {
  busyAgain();
  timer = setTimeout(() => {
    fullCollection()();
    timer = setTimeout(() => {
      timer = undefined;
      fullCollection()();
    }, SHRINK_AFTER_MS);
    timer.unref();
  }, IDLE_MS);
  timer.unref();
}

/** Called when a turn starts: a collection not yet run waits for the next idle moment. */
export function busyAgain(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
}
