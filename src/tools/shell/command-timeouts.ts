/** The longest a command may ask to run (`timeout_seconds`). */
export const MAX_TIMEOUT_SECONDS = 600;
/** The loop's limit for run_command: above the longest timeout a call may ask for, so the command's own fires first. */
export const RUN_COMMAND_LOOP_TIMEOUT_MS = (MAX_TIMEOUT_SECONDS + 15) * 1000;
