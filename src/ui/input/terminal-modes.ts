import { writeSync } from 'node:fs';
import { hangUpAnswered } from '../../shared/hang-up.ts';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
const RESTORING_SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

/**
 * Puts a terminal in raw mode with bracketed paste for the editor, and makes sure both are undone
 * however the process ends: a normal return, `process.exit`, an uncaught error (the `exit` event), or
 * SIGTERM/SIGHUP (undone, then the signal is re-raised so the exit status stays the signal's, unless
 * the REPL answers the hang-up by its own way out).
 * Returns the function that undoes them; calling it twice is harmless.
 */
export function enterEditingMode(input: NodeJS.ReadStream, output: NodeJS.WriteStream): () => void {
  let restored = false;
  const fd = (output as { fd?: unknown }).fd;
  const restore = (exiting = false) => {
    if (restored) return;
    restored = true;
    process.off('exit', onExit);
    for (const signal of RESTORING_SIGNALS) process.off(signal, onSignal);
    try {
      // While the process exits, only a synchronous write is sure to reach the terminal.
      if (exiting && typeof fd === 'number') writeSync(fd, BRACKETED_PASTE_OFF);
      else output.write(BRACKETED_PASTE_OFF);
      input.setRawMode(false);
    } catch {
      // The terminal is gone; nothing to restore.
    }
  };
  const onExit = () => restore(true);
  const onSignal = (signal: NodeJS.Signals) => {
    restore(true);
    // The REPL's way out ends the process itself once it has run (shared/hang-up.ts).
    if (signal === 'SIGHUP' && hangUpAnswered()) return;
    process.kill(process.pid, signal);
  };
  input.setRawMode(true);
  output.write(BRACKETED_PASTE_ON);
  process.on('exit', onExit);
  for (const signal of RESTORING_SIGNALS) process.on(signal, onSignal);
  return () => restore();
}

/**
 * Keys typed while Sylvan started, before the terminal was in raw mode, arrive as the terminal's
 * cooked lines, each Enter already turned into "\n" (ICRNL), which raw mode reads as Ctrl-J, a new
 * line in the input: a question typed early joined the next one. The editor's first chunk, if it is
 * such text (a "\n" in it, and no "\r" or escape, which raw-mode keys would bring), gets its Enters
 * back; what follows the last one (typed but not yet sent) stays in the input.
 */
export function withEntersTypedBeforeRawMode(firstChunk: string): string {
  return firstChunk.includes('\n') && !firstChunk.includes('\r') && !firstChunk.includes('\x1b') ? firstChunk.replaceAll('\n', '\r') : firstChunk;
}

/**
 * Lends the terminal to a child that reads it itself (an editor): raw mode and bracketed paste off,
 * our input paused. Returns the function that takes it back as it was.
 */
export function lendTerminal(input: NodeJS.ReadStream, output: NodeJS.WriteStream): () => void {
  output.write(BRACKETED_PASTE_OFF);
  input.setRawMode(false);
  input.pause();
  return () => {
    input.setRawMode(true);
    output.write(BRACKETED_PASTE_ON);
    input.resume();
  };
}
