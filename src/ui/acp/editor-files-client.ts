import type { AgentContext } from '@agentclientprotocol/sdk';
import type { EditorFiles } from '../../shared/editor-files.ts';

/** The editor's `fs/read_text_file` and `fs/write_text_file` as the file tools' `EditorFiles`. */
export function editorFilesOf(client: AgentContext, sessionId: () => string, offered: { readTextFile?: boolean; writeTextFile?: boolean }): EditorFiles | undefined {
  if (!offered.readTextFile || !offered.writeTextFile) return undefined;
  const failure = (verb: string, error: unknown) => new Error(`the editor could not ${verb} the file: ${(error as Error).message ?? String(error)}`);
  return {
    async read(absolutePath) {
      try {
        return (await client.request('fs/read_text_file', { sessionId: sessionId(), path: absolutePath })).content;
      } catch (error) {
        throw failure('read', error);
      }
    },
    async write(absolutePath, content) {
      try {
        await client.request('fs/write_text_file', { sessionId: sessionId(), path: absolutePath, content });
      } catch (error) {
        throw failure('write', error);
      }
    },
  };
}
