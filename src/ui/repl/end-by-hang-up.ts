/**
 * Ends Sylvan the way SIGHUP ends a process, once the REPL has left by its own way out after the
 * terminal hung up: what an exit would run runs first (the command groups are killed), then the
 * signal's default action. Not through exit(): Node 20 resets the terminal's modes at exit and aborts
 * when the terminal is gone (tcsetattr fails with EIO), which ended Sylvan by SIGABRT.
 */
export function endByHangUp(): void {
  process.emit('exit', 129);
  process.removeAllListeners('exit');
  // With no listener left, Node gives SIGHUP back its default action: the process ends at once.
  process.removeAllListeners('SIGHUP');
  process.kill(process.pid, 'SIGHUP');
}
