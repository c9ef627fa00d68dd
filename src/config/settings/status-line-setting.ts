/** Settings `statusLine`: a command whose first line of output is the row under the prompt. */
export interface StatusLineSetting {
  command: string;
  /** How long one run may take before it is killed (settings `statusLine.timeout`, milliseconds). */
  timeoutMs: number;
}

/** One run of the command is killed after this long, unless the setting says otherwise. */
const DEFAULT_STATUS_LINE_TIMEOUT_MS = 1_000;

/**
 * `{ "type": "command", "command": "…", "timeout"?: ms }` from the user's own settings file (the
 * format Claude Code and Qwen Code share). A folder's file may not set it: it would run code from the
 * folder at every prompt. Throws `fail(message)` for a malformed value.
 */
export function resolveStatusLine(
  layers: readonly { file: string; trusted: boolean; values: Record<string, unknown> }[],
  notes: string[],
  fail: (message: string) => Error,
): StatusLineSetting | undefined {
  let setting: StatusLineSetting | undefined;
  for (const layer of layers) {
    const raw = layer.values.statusLine;
    if (raw === undefined || raw === null) continue;
    if (!layer.trusted) {
      notes.push(`(statusLine in ${layer.file} was ignored: only $SYLVAN_HOME/settings.json may run a status line command)`);
      continue;
    }
    const value = raw as Record<string, unknown>;
    const timeout = value.timeout ?? DEFAULT_STATUS_LINE_TIMEOUT_MS;
    if (
      typeof raw !== 'object' ||
      Array.isArray(raw) ||
      value.type !== 'command' ||
      typeof value.command !== 'string' ||
      value.command.trim() === '' ||
      !Number.isInteger(timeout) ||
      (timeout as number) < 50 ||
      (timeout as number) > 60_000
    ) {
      throw fail(`${layer.file}: statusLine: must be { "type": "command", "command": "…" } (and optionally "timeout": 50–60000 ms).`);
    }
    setting = { command: value.command, timeoutMs: timeout as number };
  }
  return setting;
}
