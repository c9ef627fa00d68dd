/**
 * Where the file tools read and write when an editor drives Sylvan (ACP with the client's `fs`
 * capability): the editor's buffers, unsaved changes included, instead of the disk. Every path
 * has passed the workspace checks (boundary, links, secret files) before it gets here.
 */
export interface EditorFiles {
  /** The file's text as the editor has it; rejects with a one-line Error (a missing file, a refusal). */
  read(absolutePath: string): Promise<string>;
  /** Puts `content` in the editor's buffer for the file, which the editor saves. */
  write(absolutePath: string, content: string): Promise<void>;
}
