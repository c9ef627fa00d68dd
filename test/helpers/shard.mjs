// One shard of `npm test`: several in-process test files run one after another in one process,
// instead of a process each (starting node and loading `ai`, zod and the providers cost each
// file ~0.5–0.8 s of CPU). test/run-suite.mjs writes the shard's entry file, which calls
// `runShard`.
//
// Each file is imported inside a suite named by its path, so its top-level tests and hooks
// (`before`, `after`, …) belong to that suite and run when the file ends, as they did when the file
// was a process. After each file:
//   - the clean-up helpers registered with `atEachFileEnd` (test/helpers/file-end.mjs) run, as the
//     file's first `after` hook (alone, it was the first too: the helper was imported first);
//   - the process must be as the file found it (test/helpers/process-state.mjs): a change is put
//     back and fails a test named after the file, so it cannot pass on to the files after it;
//   - a failing `before`/`after` hook of the file, or the file's suite running out of time, fails
//     a test too (Node 22 fails no test for a suite's hook, and exits 0).
// A file in a shard is stopped at `fileTimeoutMs` (its suite's timeout), and the shard goes on
// with its next file; the whole shard is bounded by the runner's --test-timeout.
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { enterShard, fileEnds, fileStarts, hookFailures } from './file-end.mjs';
import { changesSince, listeners, snapshot, stillRunning } from './process-state.mjs';

/**
 * @param {{ files: { name: string; url: string }[]; fileTimeoutMs: number; installedOnce: { url: string; call: string }[] }} shard
 *   `name` is the file's path from the project (`test/ui/x.test.ts`), `url` its compiled module;
 *   `installedOnce` the process-wide hooks the sources install on first use, installed first.
 */
export async function runShard({ files, fileTimeoutMs, installedOnce }) {
  enterShard();
  for (const { url, call } of installedOnce) (await import(url))[call]();
  for (const { name, url } of files) {
    const before = snapshot();
    let loaded;
    let endErrors = [];
    const started = performance.now();
    // A test that waits on nothing at all (a promise never settled) would let the event loop
    // drain, and node would end the shard there, its later files never run: held open, such a
    // test fails at the file's timeout, and the shard goes on.
    const holdOpen = setInterval(() => {}, 60_000);
    await describe(name, { timeout: fileTimeoutMs }, async () => {
      fileStarts();
      after(async () => {
        endErrors = await fileEnds();
      });
      try {
        await import(url);
      } catch (error) {
        test(`${name} could not be loaded`, () => {
          throw error;
        });
      }
      loaded = listeners();
    });
    clearInterval(holdOpen);
    const problems = [];
    if (performance.now() - started >= fileTimeoutMs) problems.push({ text: `it did not end within ${fileTimeoutMs / 1000} s (its suite timed out)` });
    for (const { hook, error } of hookFailures()) problems.push({ text: `its ${hook} hook failed: ${messageOf(error)}`, error });
    for (const error of endErrors) problems.push({ text: `its end-of-file clean-up failed: ${messageOf(error)}`, error });
    // A child or server closed in an `after` hook may take a few milliseconds to be gone.
    for (let wait = 0; wait < 50 && stillRunning(before); wait++) await sleep(20);
    for (const change of changesSince(before, loaded)) {
      change.restore();
      problems.push({ text: `it left the process changed: ${change.text}` });
    }
    if (problems.length > 0) {
      test(`${name} ends cleanly`, () => {
        const cause = problems.find((problem) => problem.error !== undefined)?.error;
        throw new Error(
          `${name}, run in a shard with other files, did not end cleanly (what a file changes, it restores in its own after hook):\n${problems.map((problem) => `  - ${problem.text}`).join('\n')}`,
          cause === undefined ? undefined : { cause },
        );
      });
    }
  }
}

const messageOf = (error) => (error instanceof Error ? error.message : String(error));
