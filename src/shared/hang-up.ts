/**
 * Who answers a hang-up (SIGHUP: a closed window, a dropped ssh). Without an answer, each holder of
 * something to undo (the terminal's modes, the command groups, the MCP servers) undoes it and the
 * process ends by the signal. While the REPL holds a terminal it answers instead: it leaves by its
 * own way out (the running turn stopped, the SessionEnd hook, MCP closed) and then ends by SIGHUP,
 * whichever comes first, the signal or the end of the terminal's input.
 */
let answer: (() => void) | undefined;

/** Makes `handler` the answer to SIGHUP until the returned function is called. */
export function answerHangUp(handler: () => void): () => void {
  const listener = () => handler();
  answer = handler;
  process.on('SIGHUP', listener);
  return () => {
    if (answer === handler) answer = undefined;
    process.off('SIGHUP', listener);
  };
}

/** Whether SIGHUP is answered by a way out that ends the process itself, so others leave the ending to it. */
export const hangUpAnswered = (): boolean => answer !== undefined;

/**
 * Ends the process the way SIGHUP ends one, once the way out has run: what an exit would run runs
 * first (the command groups are killed), then the signal's default action. Not through exit(): Node
 * 20 resets the terminal's modes at exit and aborts when the terminal is gone (tcsetattr fails with
 * EIO), which ended Sylvan by SIGABRT.
 */
export function endByHangUp(): void {
  process.emit('exit', 129);
  process.removeAllListeners('exit');
  // With no listener left, SIGHUP has its default action again: the process ends at once.
  process.removeAllListeners('SIGHUP');
  process.kill(process.pid, 'SIGHUP');
}
