import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { gitBranch } from '../../src/ui/status-line/branch-label.ts';
import { modeFooter } from '../../src/ui/render/mode-display.ts';

const root = mkdtempSync(join(tmpdir(), 'sylvan-git-branch-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A folder under the temp root, with `files` written in it (folders made as needed). */
function folder(name: string, files: Record<string, string> = {}): string {
  const path = join(root, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(path, file, '..'), { recursive: true });
    writeFileSync(join(path, file), content);
  }
  mkdirSync(path, { recursive: true });
  return path;
}

describe('gitBranch: read from HEAD, no git process', () => {
  test('the branch of the repository the folder is in, from any folder below its top', () => {
    const repo = folder('repo', { '.git/HEAD': 'ref: refs/heads/feature/typing\n' });
    assert.equal(gitBranch(repo), 'feature/typing');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    assert.equal(gitBranch(join(repo, 'src', 'deep')), 'feature/typing');
  });

  test('a worktree (or submodule), whose .git is a file pointing at its own git folder', () => {
    folder('main-repo', { '.git/HEAD': 'ref: refs/heads/main\n', '.git/worktrees/side/HEAD': 'ref: refs/heads/side-branch\n' });
    const worktree = folder('side', { '.git': `gitdir: ${join(root, 'main-repo', '.git', 'worktrees', 'side')}\n` });
    assert.equal(gitBranch(worktree), 'side-branch');
    const relative = folder('relative', { '.git': 'gitdir: ../main-repo/.git\n' });
    assert.equal(gitBranch(relative), 'main');
  });

  test('a detached HEAD gives the short commit', () => {
    const repo = folder('detached', { '.git/HEAD': '0123456789abcdef0123456789abcdef01234567\n' });
    assert.equal(gitBranch(repo), '0123456 (detached)');
  });

  test('no repository, an unreadable or strange HEAD: nothing', () => {
    assert.equal(gitBranch(folder('plain')), undefined);
    assert.equal(gitBranch(folder('no-head', { '.git/config': '' })), undefined);
    assert.equal(gitBranch(folder('odd-head', { '.git/HEAD': 'garbage' })), undefined);
    assert.equal(gitBranch(folder('bad-pointer', { '.git': 'not a pointer' })), undefined);
  });

  test('a long name is cut; the row under the prompt leads with it', () => {
    const repo = folder('long', { '.git/HEAD': `ref: refs/heads/${'x'.repeat(60)}\n` });
    assert.equal(gitBranch(repo), `${'x'.repeat(39)}…`);
    assert.match(modeFooter('ask', false, 'main'), /^git: main · ask mode · /);
    assert.match(modeFooter('ask'), /^ask mode · /);
  });
});
