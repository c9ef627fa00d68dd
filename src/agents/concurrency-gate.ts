/** At most `limit` holders at once; the others wait in order. A waiter whose signal aborts leaves the queue. */
export class ConcurrencyGate {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves with a release function once a place is free; rejects when `signal` aborts first. */
  async enter(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw new Error('Interrupted before it started.');
    if (this.held < this.limit) {
      this.held++;
      return this.releaser();
    }
    // A place is handed over by its releaser, so nobody can take it between the release and the wake.
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(wake), 1);
        reject(new Error('Interrupted before it started.'));
      };
      this.waiting.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    };
  }
}
