import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
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

/** A snapshot just taken: its commit, and what git itself cannot hold of it. */
export interface SnapshotTaken {
  commit: string;
  /** Each file's mode where it is not the 0644 or 0755 git keeps (0600, 0640…), by path. */
  modes: Map<string, number>;
  /** Files left out for being over the per-file limit: enough to tell whether one changed. */
  tooBig: Map<string, { size: number; changedAt: number; inode: number }>;
}

/**
 * What the shadow repository applies to every path: nothing. No line-ending conversion, no
 * filter, no ident, no encoding: a snapshot holds the exact bytes, whatever the workspace's
 * `.gitattributes` say (this file outranks them).
 */
const NO_ATTRIBUTES = '* -text -eol -filter -ident -working-tree-encoding -crlf\n';

/** Files git opens while listing or adding: a FIFO or a device there would hold git (and the turn) forever. */
const READ_BY_GIT = new Set(['.gitignore', '.gitattributes']);

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

  /**
   * Commits the workspace as it is now and keeps the commit under `refs/sylvan/<name>`. A file over
   * `maxFileBytes` is left out (and listed in `tooBig`). Rejects, before git can hang on it, when a
   * file git reads (`.gitignore`, `.gitattributes`, `.git/info/exclude`) is a FIFO or a device.
   */
  async snapshot(name: string, maxFileBytes: number): Promise<SnapshotTaken> {
    await this.prepare();
    for (const special of ['.gitignore', '.gitattributes', '.git/info/exclude']) this.assertPlainFile(special);
    const tracked = (await runGit(['ls-files', '-z', '--cached'], { cwd: this.workTree })).stdout.toString('utf8').split('\0').filter(Boolean);
    for (const file of tracked) if (READ_BY_GIT.has(path.posix.basename(file))) this.assertPlainFile(file);
    const others = (await runGit(['ls-files', '-z', '--others', '--exclude-standard'], { cwd: this.workTree })).stdout.toString('utf8').split('\0').filter(Boolean);
    for (const file of others) if (READ_BY_GIT.has(path.posix.basename(file))) this.assertPlainFile(file);
    const taken: SnapshotTaken = { commit: '', modes: new Map(), tooBig: new Map() };
    const paths: string[] = [];
    const realFolders = new Map<string, boolean>();
    for (const file of new Set([...tracked, ...others])) {
      // A tracked path under a folder a command swapped for a link is gone from the workspace (and must not be read through the link).
      if (this.excluded(file) || !this.underRealFolders(file, realFolders)) continue;
      const stats = lstatOrUndefined(path.join(this.workTree, file));
      // A nested repository or submodule shows as a folder: its own git keeps it. A deleted tracked file is absent from the snapshot.
      if (!stats || !(stats.isFile() || stats.isSymbolicLink())) continue;
      if (stats.isFile() && stats.size > maxFileBytes) {
        taken.tooBig.set(file, { size: stats.size, changedAt: stats.ctimeMs, inode: stats.ino });
        continue;
      }
      const mode = stats.mode & 0o7777;
      if (stats.isFile() && mode !== (stats.mode & 0o100 ? 0o755 : 0o644)) taken.modes.set(file, mode);
      paths.push(file);
    }
    // Git opens every folder's .gitignore and .gitattributes on its way: none may be a FIFO or a device.
    for (const [folder, real] of realFolders) if (real) for (const name of READ_BY_GIT) this.assertPlainFile(`${folder}/${name}`);
    const wanted = new Set(paths);
    const indexed = (await this.git(['ls-files', '-z'])).stdout.toString('utf8').split('\0').filter(Boolean);
    const stale = indexed.filter((file: string) => !wanted.has(file));
    if (stale.length > 0) await this.git(['update-index', '--force-remove', '-z', '--stdin'], stale.join('\0'));
    // `git add` skips files whose stat is unchanged since the last snapshot: only changed files are hashed again.
    if (paths.length > 0) await this.git(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], paths.join('\0'));
    const tree = (await this.git(['write-tree'])).stdout.toString('utf8').trim();
    taken.commit = (await this.git(['commit-tree', tree, '-m', `sylvan checkpoint ${name}`])).stdout.toString('utf8').trim();
    await this.git(['update-ref', `refs/sylvan/${name}`, taken.commit]);
    return taken;
  }

  /** Mode and blob id of each of `paths` in a snapshot (those it holds). */
  async entries(commit: string, paths: readonly string[]): Promise<Map<string, { mode: number; oid: string }>> {
    const found = new Map<string, { mode: number; oid: string }>();
    if (paths.length === 0) return found;
    const { stdout } = await this.git(['ls-tree', '-z', '--full-tree', commit, '--', ...paths]);
    for (const line of stdout.toString('utf8').split('\0')) {
      const match = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(line);
      if (match) found.set(match[3]!, { mode: Number.parseInt(match[1]!, 8), oid: match[2]! });
    }
    return found;
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

  /**
   * Forgets the named snapshots and prunes what nothing keeps any more. With `latest`, the newest
   * snapshots are among them: the index (which keeps what it last added) is emptied first, so
   * their files go too; the next snapshot hashes every file again.
   */
  async drop(names: readonly string[], options: { latest?: boolean } = {}): Promise<void> {
    if (names.length === 0 || !this.exists()) return;
    await (this.ready ??= this.initialise());
    for (const name of names) await this.git(['update-ref', '-d', `refs/sylvan/${name}`]).catch(() => {});
    if (options.latest) rmSync(path.join(this.gitDir, 'index'), { force: true });
    await this.git(['prune', '--expire=now']).catch(() => {});
  }

  /** Bytes the shadow repository's objects take on disk. */
  async sizeBytes(): Promise<number> {
    if (!this.exists()) return 0;
    await (this.ready ??= this.initialise());
    const { stdout } = await this.git(['count-objects', '-v']);
    const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(stdout.toString('utf8'))?.[1] ?? 0);
    return (kib('size') + kib('size-pack')) * 1024;
  }

  /**
   * Makes the repository ready for the next snapshot: created when missing (resolves with
   * 'created' then: on a session that had snapshots, they are gone), its attributes fenced, and a
   * lock left by a killed git removed (every git of this repository runs one at a time, so no
   * lock is live when this runs).
   */
  async prepare(): Promise<'created' | 'ready'> {
    const missing = !this.exists();
    if (missing || this.ready === undefined) this.ready = this.initialise();
    await this.ready;
    rmSync(path.join(this.gitDir, 'index.lock'), { force: true });
    return missing ? 'created' : 'ready';
  }

  private exists(): boolean {
    return existsSync(path.join(this.gitDir, 'HEAD'));
  }

  /** Whether every folder on the way to `relativePath` is a real folder, not a link; `known` caches the answers. */
  private underRealFolders(relativePath: string, known: Map<string, boolean>): boolean {
    const folder = path.posix.dirname(relativePath);
    if (folder === '.') return true;
    let real = known.get(folder);
    if (real === undefined) {
      real = this.underRealFolders(folder, known) && lstatOrUndefined(path.join(this.workTree, folder))?.isDirectory() === true;
      known.set(folder, real);
    }
    return real;
  }

  private assertPlainFile(relativePath: string): void {
    const stats = lstatOrUndefined(path.join(this.workTree, relativePath));
    if (!stats || stats.isFile() || stats.isSymbolicLink() || stats.isDirectory()) return;
    const kind = stats.isFIFO() ? 'a FIFO' : stats.isSocket() ? 'a socket' : 'a device';
    throw new Error(`${relativePath} is ${kind}, not a file, and git would wait on it for ever`);
  }

  private async initialise(): Promise<void> {
    mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    await runGit(['--git-dir', this.gitDir, 'init', '--quiet'], { cwd: this.workTree });
    await this.git(['config', 'core.bare', 'false']);
    const attributes = path.join(this.gitDir, 'info', 'attributes');
    mkdirSync(path.dirname(attributes), { recursive: true, mode: 0o700 });
    if (readOrEmpty(attributes) !== NO_ATTRIBUTES) writeFileSync(attributes, NO_ATTRIBUTES, { mode: 0o600 });
  }

  private git(args: readonly string[], input?: string) {
    // Literal pathspecs: a file named `*.ts` is that file, not a pattern.
    return runGit(['--git-dir', this.gitDir, '--work-tree', this.workTree, '--literal-pathspecs', ...args], { cwd: this.workTree, input });
  }
}

function lstatOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
