import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What came back from the editor: the file's text, or one line saying why the input is unchanged. */
export type EditorOutcome = { kind: 'edited'; text: string } | { kind: 'failed'; message: string };

/** A shell's exit status for a command it could not find (127) or run (126). */
const CANNOT_START = new Set([126, 127]);

/**
 * Ctrl-G: `text` in the user's editor — `$VISUAL`, else `$EDITOR`, else `vi`; one that cannot start
 * is passed over for the next. Each runs through `sh -c` as git runs it (so `code --wait` works),
 * on a file in a fresh private folder (file 0600) that is deleted afterwards. The editor has the
 * terminal: the caller gives it up first. The text saved comes back without its final newline; an
 * editor that exits with an error leaves the input unchanged. Never throws.
 */
export async function editInExternalEditor(text: string, environment: NodeJS.ProcessEnv = process.env): Promise<EditorOutcome> {
  const commands = [...new Set([environment.VISUAL, environment.EDITOR, 'vi'].map((command) => command?.trim() ?? '').filter((command) => command !== ''))];
  let folder: string | undefined;
  try {
    folder = mkdtempSync(join(tmpdir(), 'sylvan-input-'));
    const file = join(folder, 'message.md');
    writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    for (const command of commands) {
      const status = await run(command, file, environment);
      if (status === 'cannot-start') continue;
      if (status !== 0) return { kind: 'failed', message: `The editor (${command}) ${typeof status === 'number' ? `exited with code ${status}` : `was ended by ${status}`}; the input is unchanged.` };
      return { kind: 'edited', text: readFileSync(file, 'utf8').replace(/(\r?\n)+$/, '') };
    }
    return { kind: 'failed', message: `No editor could be started (tried ${commands.join(', ')}); set VISUAL or EDITOR to one that runs. The input is unchanged.` };
  } catch (error) {
    return { kind: 'failed', message: `The input could not be opened in an editor (${(error as Error).message.split('\n')[0]}); it is unchanged.` };
  } finally {
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

/** The editor's exit code, the signal that ended it, or `cannot-start`. */
function run(command: string, file: string, environment: NodeJS.ProcessEnv): Promise<number | NodeJS.Signals | 'cannot-start'> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', `${command} "$@"`, 'sh', file], { stdio: 'inherit', env: environment });
    child.on('error', () => resolve('cannot-start'));
    child.on('exit', (code, signal) => resolve(code !== null ? (CANNOT_START.has(code) ? 'cannot-start' : code) : (signal ?? 'cannot-start')));
  });
}
