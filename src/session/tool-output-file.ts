import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../shared/redact-secrets.ts';
import { writeFileAtomic } from '../shared/atomic-write.ts';
import { makeFolders, reasonOf } from './session-home.ts';
import { sessionFolder } from './session-paths.ts';

export interface ToolOutputFile {
  home: string;
  sessionId: string;
  toolName: string;
  toolCallId: string;
  /** The output as the model read it. */
  text: string;
  /** Scrubbed from the text, as from every session line. */
  secrets: readonly string[];
}

/** The model's names and ids are outside text: only letters, digits, '-' and '_' reach a file name. */
const fileSafe = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'call';

/**
 * Keeps a tool call's whole output in the session's folder,
 * `$SYLVAN_HOME/sessions/<id>/tool-output/<tool>-<call id>.txt` (folders 0700, file 0600), with the
 * session's secrets redacted, written atomically (a temp file renamed into place). Resolves with the
 * file's path; rejects with an Error of one line saying why it could not be written.
 */
export async function saveToolOutput(file: ToolOutputFile): Promise<string> {
  try {
    const folder = join(sessionFolder(file.home, file.sessionId), 'tool-output');
    makeFolders(folder);
    const path = join(realpathSync(folder), `${fileSafe(file.toolName)}-${fileSafe(file.toolCallId)}.txt`);
    await writeFileAtomic(path, redactSecrets(file.text, file.secrets), { mode: 0o600 });
    return path;
  } catch (error) {
    throw new Error(`the full output could not be saved (${reasonOf(error)})`);
  }
}
