import type { ToolSet } from 'ai';
import { wrapExecutes, type Execute } from './wrap-executes.ts';

/**
 * The loop's per-tool timeout aborts the tool's signal (`executeToolCall`); this makes that abort
 * end the call at once, even for a tool that ignores its signal, with an error the model can act on
 * instead of a bare "TimeoutError".
 */
export function withTimeoutMessages<TOOLS extends ToolSet>(tools: TOOLS, timeoutMs: number): TOOLS {
  const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
  return wrapExecutes(tools, (name, execute): Execute => (input, options) =>
    new Promise((resolve, reject) => {
      const signal = options.abortSignal;
      const onAbort = () => {
        const reason: unknown = signal?.reason;
        if (reason instanceof Error && reason.name === 'TimeoutError') {
          reject(new Error(`${name} did not finish within ${limit} and was stopped. Tell the user it timed out; do not guess its result.`));
        } else {
          reject(reason instanceof Error ? reason : new Error('The tool call was interrupted.'));
        }
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(execute(input, options) as unknown).then(
        (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    }),
  );
}
