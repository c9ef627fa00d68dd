/**
 * One model request's signal: aborted by the user's interrupt or when `timeoutMs` has passed. One
 * controller and one timer per step, cleared with `end()` as soon as the request is read, so the
 * calls the loop runs afterwards are bounded by their own timeouts, not the model's.
 */
export function stepDeadline(userSignal: AbortSignal, timeoutMs: number): { signal: AbortSignal; timedOut: () => boolean; end: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(userSignal.reason);
  if (userSignal.aborted) onAbort();
  else userSignal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The model step did not finish within ${timeoutMs} ms (timeout).`, 'TimeoutError'));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    end: () => {
      clearTimeout(timer);
      userSignal.removeEventListener('abort', onAbort);
    },
  };
}
