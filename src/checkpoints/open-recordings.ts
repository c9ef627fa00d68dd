/**
 * The recordings begun and not yet finished: a change's "before" taken (or waited for) and its
 * "after" still to come. A call the user stops ends for the loop at once, while its command may
 * take seconds more to die (SIGTERM, a grace, SIGKILL) and its after-snapshot longer still: /undo
 * must wait for those, not only for the work already queued.
 */
export class OpenRecordings {
  private readonly open = new Set<Promise<void>>();

  /** Runs `record`; the recording is open from now until the finish it returns has run (or it failed to start). */
  async track(record: () => Promise<() => Promise<void>>): Promise<() => Promise<void>> {
    let close: () => void = () => {};
    const closed = new Promise<void>((resolve) => {
      close = resolve;
    });
    this.open.add(closed);
    const done = () => {
      this.open.delete(closed);
      close();
    };
    try {
      const finish = await record();
      return async () => {
        try {
          await finish();
        } finally {
          done();
        }
      };
    } catch (error) {
      done();
      throw error;
    }
  }

  /**
   * True once every recording open now has closed and then `after()` has settled; false when
   * `withinMs` passed first.
   */
  async closedWithin(withinMs: number, after: () => Promise<unknown>): Promise<boolean> {
    const done = Promise.all([...this.open]).then(after).then(() => true);
    if (withinMs === Number.POSITIVE_INFINITY) return done;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), withinMs);
    });
    try {
      return await Promise.race([done, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
