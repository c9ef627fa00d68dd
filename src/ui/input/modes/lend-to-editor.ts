import { sanitizeLine } from '../../../shared/text/sanitize.ts';
import { lendTerminal } from '../terminal-modes.ts';
import type { SharedInput } from './shared-input.ts';

/** What lending the terminal needs from the editor. */
export interface LendHooks {
  /** While lent, keys are the editor's (the program's), not ours. */
  lending(on: boolean): void;
  closed(): boolean;
  /** The prompt that asked is still the one shown. */
  stillReading(): boolean;
  draw(): void;
}

/**
 * Ctrl-G or Ctrl-X Ctrl-E: the message in `$VISUAL` / `$EDITOR`. The prompt is cleared and the
 * terminal lent to the editor; what the editor saved becomes the buffer (not sent). When no editor
 * can start, one line says so above the prompt.
 */
export async function lendToEditor(shared: SharedInput, terminal: { input: NodeJS.ReadStream; output: NodeJS.WriteStream }, hooks: LendHooks): Promise<void> {
  hooks.lending(true);
  shared.area.erase();
  const text = shared.pastes.expand(shared.buffer.text);
  const takeBack = lendTerminal(terminal.input, terminal.output);
  let outcome: { kind: 'edited'; text: string } | { kind: 'failed'; message: string };
  try {
    outcome = await import('../external-editor.ts').then(({ editInExternalEditor }) => editInExternalEditor(text));
  } catch (error) {
    outcome = { kind: 'failed', message: `The editor could not be opened (${(error as Error).message}); the input is unchanged.` };
  } finally {
    hooks.lending(false);
    if (!hooks.closed()) takeBack();
  }
  if (hooks.closed() || !hooks.stillReading()) return;
  if (outcome.kind === 'edited') {
    shared.pastes.clear();
    shared.buffer.set(outcome.text);
    shared.historyIndex = -1;
  } else {
    shared.write(`${shared.dim(sanitizeLine(outcome.message))}\r\n`);
  }
  hooks.draw();
}
