import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The middle value (the mean of the two middle ones for an even count); NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Milliseconds `work` took, by `performance.now()`. */
export function timeSync(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

/**
 * A full garbage collection. `npm run bench` starts node without `--expose-gc`, so the flag is set at
 * run time and the function fetched from a fresh context (the only place it appears after the fact).
 */
export const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * A full collection, then a wait until the process is quiet: V8 sweeps and frees the collected heap
 * on background threads after `gc()` returns, and `process.cpuUsage()` counts every thread, so a CPU
 * clock started at once charged the previous measurement's clean-up to the next one (in the loop
 * bench, whichever loop ran second in a round paid ~5 ms a step over its first ten steps). Quiet:
 * a 20 ms stretch in which the process used under 1 ms of CPU; at most a second.
 */
export async function collectGarbageAndSettle(): Promise<void> {
  collectGarbage();
  const deadline = performance.now() + 1_000;
  while (performance.now() < deadline) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const used = process.cpuUsage(before);
    if (used.user + used.system < 1_000) return;
  }
}

/** Heap in use after a full collection, so the number reflects what is still reachable. */
export function settledHeapUsed(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

export const formatMs = (ms: number): string => (ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`);

export const formatMicroseconds = (microseconds: number): string => `${microseconds.toFixed(microseconds >= 10 ? 1 : 2)} µs`;

export const formatMegabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const formatCount = (count: number): string => count.toLocaleString('en-US');

/** "1.23x": how many times the reference a measurement took. */
export const formatRatio = (ratio: number): string => `${ratio.toFixed(2)}x`;
