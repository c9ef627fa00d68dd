import { writeSync } from 'node:fs';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
const RESTORING_SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

/**
 * Puts a terminal in raw mode with bracketed paste for the editor, and makes sure both are undone
 * however the process ends: a normal return, `process.exit`, an uncaught error (the `exit` event), or
 * SIGTERM/SIGHUP (undone, then the signal is re-raised so the exit status stays the signal's).
 * Returns the function that undoes them; calling it twice is harmless.
 */
export function enterEditingMode(input: NodeJS.ReadStream, output: NodeJS.WriteStream): () => void {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.off('exit', restore);
    for (const signal of RESTORING_SIGNALS) process.off(signal, onSignal);
    try {
      writeSync((output as unknown as { fd?: number }).fd ?? 1, BRACKETED_PASTE_OFF);
    } catch {
      // The terminal is gone; nothing to restore.
    }
    if (input.isTTY) input.setRawMode(false);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    restore();
    process.kill(process.pid, signal);
  };
  input.setRawMode(true);
  output.write(BRACKETED_PASTE_ON);
  process.on('exit', restore);
  for (const signal of RESTORING_SIGNALS) process.on(signal, onSignal);
  return restore;
}
