// The end of a test file, whether the file has a process of its own or shares one with other
// files (`npm test` runs the in-process files in a few shards, test/helpers/shard.mjs). A helper
// with state that must not outlive the file (child processes, temp folders) registers its clean-up
// with `atEachFileEnd`, not with a module-level `after()`: a module is evaluated once per process,
// so in a shard that `after()` would belong to whichever file imported the helper first.
import { after } from 'node:test';

const state = {
  inShard: false,
  ending: false,
  /** @type {(() => void | Promise<void>)[]} */
  endings: [],
  /** @type {{ hook: string; error: unknown }[]} */
  hookFailures: [],
};

/** Runs `end` when each test file ends: the file's own `after` alone, after every file in a shard. */
export function atEachFileEnd(end) {
  if (state.inShard) state.endings.push(end);
  else
    after(async () => {
      state.ending = true;
      await end();
    });
}

/** True once the current file's tests are over (its clean-up has begun). */
export const fileEnding = () => state.ending;

/** True in a shard: the process runs several test files one after another. */
export const inShard = () => state.inShard;

// ---- for test/helpers/shard.mjs and test/helpers/node-test.mjs -----------------------------------

export function enterShard() {
  state.inShard = true;
}

/** A new file of the shard starts. */
export function fileStarts() {
  state.ending = false;
  state.hookFailures = [];
}

/** The file's tests are over: every registered clean-up runs; resolves with the errors thrown. */
export async function fileEnds() {
  state.ending = true;
  const errors = [];
  for (const end of state.endings) {
    try {
      await end();
    } catch (error) {
      errors.push(error);
    }
  }
  return errors;
}

/** A `before` or `after` hook failed (on Node 22 a suite's failing hook fails no test). */
export function hookFailed(hook, error) {
  state.hookFailures.push({ hook, error });
}

export const hookFailures = () => state.hookFailures;
