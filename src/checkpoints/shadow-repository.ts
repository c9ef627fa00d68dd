import { lstatSync, mkdirSync } from 'node:fs';
import { runGit } from './isolated-git.ts';

/** One path that differs between two snapshots. */
export interface SnapshotChange {
  path: string;
  /** A added, M modified, D deleted, T type changed (file ↔ link). */
  status: 'A' | 'M' | 'D' | 'T';
  /** Mode and blob id on each side; absent on the side where the path did not exist. */
  before?: { mode: number; oid: string };
  after?: { mode: number; oid: string };
}

/** A file or link as one snapshot holds it. */
export interface SnapshotEntry {
  mode: number;
  bytes: Buffer;
}

/**
 * Whether `folder` lies in a git work tree (the user's repository), asked of git itself with the
 * fenced environment. Never throws: no git, or no repository, is `false`.
 */
export async function isInGitWorkTree(folder: string): Promise<boolean> {
  try {
    const { stdout } = await runGit(['rev-parse', '--is-inside-work-tree'], { cwd: folder });
    return stdout.toString('utf8').trim() === 'true';
  } catch {
    return false;
  }
}

/**
 * A git repository of Sylvan's own (under $SYLVAN_HOME) whose work tree is the workspace: a
 * snapshot is a commit of the workspace's tracked and untracked-but-not-ignored files, as the
 * user's repository defines them. The user's repository is only ever read (`ls-files`, with
 * optional locks off); its HEAD, index, stash and refs are never written. Snapshots are kept by
 * refs under `refs/sylvan/`; `drop` lets git prune what no ref keeps.
 */
export class ShadowRepository {
  private ready: Promise<void> | undefined;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    /** Paths (workspace-relative, `/`-separated) that never enter a snapshot: secrets, Sylvan's own home. */
    private readonly excluded: (relativePath: string) => boolean,
  ) {}

  /** Commits the workspace as it is now and keeps the commit under `refs/sylvan/<name>`; resolves with its id. */
  async snapshot(name: string): Promise<string> {
    await (this.ready ??= this.initialise());
    const listed = await runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: this.workTree });
    const paths = [...new Set(listed.stdout.toString('utf8').split('\0').filter(Boolean))].filter((path) => this.snapshotable(path));
    const wanted = new Set(paths);
    const indexed = (await this.git(['ls-files', '-z'])).stdout.toString('utf8').split('\0').filter(Boolean);
    const stale = indexed.filter((path) => !wanted.has(path));
    if (stale.length > 0) await this.git(['update-index', '--force-remove', '-z', '--stdin'], stale.join('\0'));
    // `git add` skips files whose stat is unchanged since the last snapshot: only changed files are hashed again.
    if (paths.length > 0) await this.git(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], paths.join('\0'));
    const tree = (await this.git(['write-tree'])).stdout.toString('utf8').trim();
    const commit = (await this.git(['commit-tree', tree, '-m', `sylvan checkpoint ${name}`])).stdout.toString('utf8').trim();
    await this.git(['update-ref', `refs/sylvan/${name}`, commit]);
    return commit;
  }

  /** The paths that differ between two snapshots. */
  async changes(from: string, to: string): Promise<SnapshotChange[]> {
    const { stdout } = await this.git(['diff-tree', '-r', '-z', '--no-renames', '--raw', '--abbrev=40', from, to]);
    // Each change: ":<old mode> <new mode> <old oid> <new oid> <status>" NUL "<path>" NUL.
    const fields = stdout.toString('utf8').split('\0').filter(Boolean);
    const changes: SnapshotChange[] = [];
    for (let index = 0; index + 1 < fields.length; index += 2) {
      const [oldMode = '', newMode = '', oldOid = '', newOid = '', status = ''] = fields[index]!.slice(1).split(' ');
      const side = (mode: string, oid: string) => (/^0+$/.test(mode) ? undefined : { mode: Number.parseInt(mode, 8), oid });
      changes.push({ status: status.charAt(0) as SnapshotChange['status'], path: fields[index + 1]!, before: side(oldMode, oldOid), after: side(newMode, newOid) });
    }
    return changes;
  }

  /** A file of a snapshot, or undefined when the snapshot does not hold it. */
  async read(commit: string, path: string): Promise<SnapshotEntry | undefined> {
    const { stdout } = await this.git(['ls-tree', '-z', commit, '--', path]);
    const line = stdout.toString('utf8').split('\0')[0];
    const match = /^(\d+) blob ([0-9a-f]+)\t/.exec(line ?? '');
    if (!match) return undefined;
    const bytes = (await this.git(['cat-file', 'blob', match[2]!])).stdout;
    return { mode: Number.parseInt(match[1]!, 8), bytes };
  }

  /** The contents of many blobs with one git process. */
  async blobs(oids: readonly string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    const unique = [...new Set(oids)];
    if (unique.length === 0) return found;
    const { stdout } = await this.git(['cat-file', '--batch'], `${unique.join('\n')}\n`);
    let offset = 0;
    while (offset < stdout.length) {
      const end = stdout.indexOf(0x0a, offset);
      if (end < 0) break;
      const [oid = '', type = '', size = ''] = stdout.subarray(offset, end).toString('utf8').split(' ');
      if (type === 'missing') {
        offset = end + 1;
        continue;
      }
      const length = Number(size);
      found.set(oid, stdout.subarray(end + 1, end + 1 + length));
      offset = end + 1 + length + 1;
    }
    return found;
  }

  /** Forgets the named snapshots and prunes what nothing keeps any more. */
  async drop(names: readonly string[]): Promise<void> {
    if (names.length === 0 || this.ready === undefined) return;
    await this.ready;
    for (const name of names) await this.git(['update-ref', '-d', `refs/sylvan/${name}`]).catch(() => {});
    await this.git(['prune', '--expire=now']).catch(() => {});
  }

  /** Bytes the shadow repository's objects take on disk. */
  async sizeBytes(): Promise<number> {
    if (this.ready === undefined) return 0;
    await this.ready;
    const { stdout } = await this.git(['count-objects', '-v']);
    const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(stdout.toString('utf8'))?.[1] ?? 0);
    return (kib('size') + kib('size-pack')) * 1024;
  }

  private snapshotable(path: string): boolean {
    if (this.excluded(path)) return false;
    try {
      const stats = lstatSync(`${this.workTree}/${path}`);
      // A nested repository or submodule shows as a folder: its own git keeps it.
      return stats.isFile() || stats.isSymbolicLink();
    } catch {
      return false; // tracked by the user, deleted from the workspace: absent from the snapshot
    }
  }

  private async initialise(): Promise<void> {
    mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    await runGit(['--git-dir', this.gitDir, 'init', '--quiet'], { cwd: this.workTree });
    await this.git(['config', 'core.bare', 'false']);
  }

  private git(args: readonly string[], input?: string) {
    // Literal pathspecs: a file named `*.ts` is that file, not a pattern.
    return runGit(['--git-dir', this.gitDir, '--work-tree', this.workTree, '--literal-pathspecs', ...args], { cwd: this.workTree, input });
  }
}
