/**
 * `promise`, or a rejection saying `what` ("the request to reach the server") never happened when
 * it has not settled within `ms`. Every awaited event in a test (a request reaching the server, a
 * prompt appearing, a process exiting) goes through this, so a test waiting for something that
 * never comes fails with a message instead of hanging. A safety net, not a timing assertion: be
 * generous.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Waited ${Math.round(ms / 100) / 10} s for ${what}; it never happened.`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

export interface Signal<T = void> {
  /** Settles on the first `fire`. */
  readonly fired: Promise<T>;
  fire(value: T): void;
  /** `performance.now()` at the first `fire`, NaN before it. */
  readonly firedAt: number;
}

/** A one-shot event a test can fire from a callback (a server's responder) and await with a deadline. */
export function signal<T = void>(): Signal<T> {
  let resolve!: (value: T) => void;
  const fired = new Promise<T>((settle) => (resolve = settle));
  let firedAt = Number.NaN;
  return {
    fired,
    fire(value: T) {
      if (Number.isNaN(firedAt)) firedAt = performance.now();
      resolve(value);
    },
    get firedAt() {
      return firedAt;
    },
  };
}

/**
 * The bound for one test that runs the CLI as a process: far above the few seconds it takes, since
 * on a loaded 2-core machine it may also wait for one of its file's three process slots.
 */
export const CLI_TEST_TIMEOUT = { timeout: 180_000 } as const;

/**
 * Resolves once `check` holds, checked every 25 ms (a process that must be gone, a file that must
 * appear, a screen that must show something); rejects saying `what` never happened after `ms`.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Waited ${Math.round(ms / 100) / 10} s for ${what}; it never happened.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
