import type { Choice } from '../input/line-reader-contract.ts';
import type { ReplState } from './repl-state.ts';

/**
 * A command's question with a few answers: on a terminal, the one-key menu (as approvals are
 * answered), where Enter picks the first choice, so the first is the safe one; through a pipe, a
 * typed line (a choice's key or its first word). Undefined when the user backs out (Esc, Ctrl-C,
 * Ctrl-D, an empty line) or the answer is none of the choices.
 */
export async function askOneKey(state: Pick<ReplState, 'choose' | 'ask'>, question: string, choices: readonly Choice[]): Promise<string | undefined> {
  if (state.choose) {
    const picked = await state.choose(question, choices);
    return picked.kind === 'choice' ? picked.key : undefined;
  }
  const keys = choices.map((choice) => `[${choice.key}] ${choice.label}`).join(' / ');
  const typed = ((await state.ask(`${question} ${keys} › `)) ?? '').trim().toLowerCase();
  if (typed === '') return undefined;
  return choices.find((choice) => choice.key === typed || choice.label.toLowerCase().split(/[\s,]/)[0] === typed)?.key;
}

/** Keep or replace an existing file: keeping is first, so Enter (and a pipe's end) keeps it. */
export const KEEP_OR_OVERWRITE: readonly Choice[] = [
  { key: 'n', label: 'No, keep it' },
  { key: 'y', label: 'Yes, overwrite it' },
];
