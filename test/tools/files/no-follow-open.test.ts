import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openWorkspaceFile, resolveWorkspaceTarget } from '../../../src/shared/workspace-path.ts';

// Files are opened with O_NOFOLLOW: a file swapped for a link after it was resolved is not followed.

const root = mkdtempSync(join(tmpdir(), 'sylvan-no-follow-'));
after(() => rmSync(root, { recursive: true, force: true }));
const cwd = join(root, 'project');
const write = (path: string, content: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
};

describe('O_NOFOLLOW', () => {
  test('a file swapped for a symbolic link after it was resolved is not followed when opened', async () => {
    const outside = join(root, 'outside.txt');
    write(outside, 'TOP SECRET, outside the workspace\n');
    write(join(cwd, 'swap.txt'), 'harmless\n');
    const target = await resolveWorkspaceTarget(cwd, 'swap.txt');
    unlinkSync(join(cwd, 'swap.txt'));
    symlinkSync(outside, join(cwd, 'swap.txt'));
    // The refusal must come from the open itself (ELOOP): the /proc/self/fd check after it does not
    // exist on every system, and without /proc the device-and-inode fallback follows the link too.
    await assert.rejects(openWorkspaceFile(target, 'swap.txt'), /changed into a symbolic link while it was being opened/);
  });
});
