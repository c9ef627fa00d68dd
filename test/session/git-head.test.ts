import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { readGitBranch } from '../../src/shared/git-head.ts';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function repository(head: string): string {
  const root = mkdtempSync(join(tmpdir(), 'sylvan-branch-'));
  folders.push(root);
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'HEAD'), head);
  return root;
}

test('the branch from .git/HEAD, also from a folder inside the repository', () => {
  const root = repository('ref: refs/heads/feature/picker\n');
  assert.equal(readGitBranch(root), 'feature/picker');
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  assert.equal(readGitBranch(join(root, 'src', 'deep')), 'feature/picker');
});

test('a detached HEAD gives the short commit; a HEAD that is neither gives nothing', () => {
  assert.equal(readGitBranch(repository('0123456789abcdef0123456789abcdef01234567\n')), '0123456');
  assert.equal(readGitBranch(repository('\x1b[2Jnot a head\n')), undefined);
});

test("a worktree's .git file is followed to its HEAD", () => {
  const main = repository('ref: refs/heads/main\n');
  const worktreeGit = join(main, '.git', 'worktrees', 'wt');
  mkdirSync(worktreeGit, { recursive: true });
  writeFileSync(join(worktreeGit, 'HEAD'), 'ref: refs/heads/resume\n');
  const worktree = mkdtempSync(join(tmpdir(), 'sylvan-worktree-'));
  folders.push(worktree);
  writeFileSync(join(worktree, '.git'), `gitdir: ${worktreeGit}\n`);
  assert.equal(readGitBranch(worktree), 'resume');
});

test('outside a repository: undefined, never an error', () => {
  const plain = mkdtempSync(join(tmpdir(), 'sylvan-no-git-'));
  folders.push(plain);
  // tmpdir itself may sit inside a repository on a developer's machine; only "no throw" is certain there.
  assert.doesNotThrow(() => readGitBranch(plain));
  assert.equal(readGitBranch('/proc/nope/missing'), undefined);
});
