import type { NobodyToAsk } from './approval-types.ts';

/** Print mode: nobody to ask, so a call that needs approval runs only with --yes. */
export const printModeCannotAsk: NobodyToAsk = {
  cannotAsk: (toolName) =>
    `${toolName} needs the user's approval, and Sylvan is running non-interactively without --yes, so it was not run and nothing changed. Tell the user they can rerun with --yes (or SYLVAN_YES=1) to allow it.`,
};

/** A REPL reading a pipe: the next line is the user's next question, never an answer. */
export const pipeCannotAsk: NobodyToAsk = {
  cannotAsk: (toolName) =>
    `${toolName} needs the user's approval, and Sylvan's input is a pipe, not a terminal, so it cannot ask; it was not run and nothing changed. Tell the user they can rerun with --yes (or SYLVAN_YES=1) to allow it.`,
};
