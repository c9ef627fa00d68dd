// `node:test` as the compiled tests import it (test/compile-tests.mjs points their imports here):
// the same module, except that in a shard a failing `before` or `after` hook is also recorded, so
// the shard fails a test for it. Node 22 counts a suite's failing hook as no failed test and exits
// 0, and in a shard a file's top-level hooks are its suite's; alone, they were the file's and a
// failure failed the file. Outside a shard this changes nothing.
import nodeTest, { after as nodeAfter, before as nodeBefore } from 'node:test';
import { hookFailed, inShard } from './file-end.mjs';

export * from 'node:test';
export default nodeTest;

/** `fn`, recording what it throws (or passes to `done`) as the failure of `hook`. */
function watched(hook, fn) {
  if (typeof fn !== 'function' || !inShard()) return fn;
  if (fn.length >= 2) {
    return function (context, done) {
      return fn.call(this, context, (error) => {
        if (error) hookFailed(hook, error);
        done(error);
      });
    };
  }
  return async function (context) {
    try {
      return await fn.call(this, context);
    } catch (error) {
      hookFailed(hook, error);
      throw error;
    }
  };
}

export const before = (fn, options) => nodeBefore(watched('before', fn), options);
export const after = (fn, options) => nodeAfter(watched('after', fn), options);
