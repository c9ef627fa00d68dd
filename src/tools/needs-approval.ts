/** Tools that change the disk: the user approves each call (or says "always"). Kept light: the REPL loads it at start. */
export const TOOLS_NEEDING_APPROVAL: ReadonlySet<string> = new Set(['write_file']);
