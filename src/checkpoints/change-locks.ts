/** Lets the holder's successors go on; call once, when its change (and its recording) is over. */
export type Release = () => void;

/**
 * Turns for the calls of a step that change the workspace, taken in the order the calls start:
 * two changes of the same file run one after the other (each edit sees the one before), and a
 * command, which may touch anything, runs alone — after every change started before it, before
 * every change started after it. Changes of different files run together.
 */
export class ChangeLocks {
  private lastCommand: Promise<void> = Promise.resolve();
  private readonly lastOfPath = new Map<string, Promise<void>>();

  /** Resolves when `relativePath` may be changed. */
  file(relativePath: string): Promise<Release> {
    const { done, release } = releasable();
    const waited = Promise.all([this.lastCommand, this.lastOfPath.get(relativePath)]);
    const tail = waited.then(() => done);
    this.lastOfPath.set(relativePath, tail);
    return waited.then(() => () => {
      release();
      if (this.lastOfPath.get(relativePath) === tail) this.lastOfPath.delete(relativePath);
    });
  }

  /** Resolves when a command may run: nothing else changes the workspace until it releases. */
  command(): Promise<Release> {
    const { done, release } = releasable();
    const waited = Promise.all([this.lastCommand, ...this.lastOfPath.values()]);
    this.lastOfPath.clear();
    this.lastCommand = waited.then(() => done);
    return waited.then(() => release);
  }
}

function releasable(): { done: Promise<void>; release: Release } {
  let release: Release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { done, release };
}
