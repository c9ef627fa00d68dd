import { isInGitWorkTree } from './shadow-repository.ts';

const NOT_UNDOABLE = "this folder is not in a git work tree, so what commands change cannot be undone; /undo covers Sylvan's own file edits";

/**
 * Whether what commands change can be undone — only in a git work tree, where the shadow
 * repository can snapshot the workspace — and saying so: before a command runs (its approval, a
 * `!command`) and else once after the first one.
 */
export class UndoableCommands {
  private inGit: Promise<boolean> | undefined;
  private told = false;

  constructor(private readonly root: string) {}

  undoable(): Promise<boolean> {
    return (this.inGit ??= isInGitWorkTree(this.root));
  }

  /** Outside git, the line to show before a command runs (`once`: unless told before); the notice after it is then not repeated. */
  async noteBefore(options: { once?: boolean } = {}): Promise<string | undefined> {
    if (await this.undoable()) return undefined;
    if (options.once && this.told) return undefined;
    this.told = true;
    return NOT_UNDOABLE;
  }

  /** After a command outside git, the notice, unless it was told already. */
  noticeAfter(): string | undefined {
    if (this.told) return undefined;
    this.told = true;
    return `(${NOT_UNDOABLE})`;
  }
}
