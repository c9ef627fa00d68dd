import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs, { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readBoundedFile, readWholeSmallFile } from '../../src/shared/bounded-file.ts';

const base = mkdtempSync(join(tmpdir(), 'sylvan-bounded-'));
after(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'workspace');
mkdirSync(root);
const options = { maxBytes: 1_000, within: root, withinLabel: 'the workspace' };

describe('readBoundedFile', () => {
  it('reads at most maxBytes of a large regular file, and says it was cut', () => {
    writeFileSync(join(root, 'big.txt'), 'a'.repeat(5_000));
    const read = readBoundedFile(join(root, 'big.txt'), options);
    assert.equal(read.status, 'read');
    if (read.status !== 'read') return;
    assert.equal(read.bytes.length, 1_000);
    assert.equal(read.size, 5_000);
    assert.equal(read.cut, true);
  });

  it('a file parsed whole (settings, .env) is refused when larger than the bound, never cut', () => {
    writeFileSync(join(root, 'small.json'), '{}');
    assert.deepEqual(readWholeSmallFile(join(root, 'big.txt'), options), { status: 'refused', reason: 'it is larger than 1,000 bytes' });
    assert.equal(readWholeSmallFile(join(root, 'small.json'), options).status, 'read');
  });

  it('a .gitignore-sized read of a 2 GB sparse file returns its first bytes at once', () => {
    const file = join(root, 'sparse');
    writeFileSync(file, 'node_modules/\n');
    execFileSync('truncate', ['-s', '2G', file]);
    const started = Date.now();
    const read = readBoundedFile(file, options);
    assert.ok(Date.now() - started < 1_000);
    assert.ok(read.status === 'read' && read.bytes.subarray(0, 14).toString() === 'node_modules/\n' && read.cut);
  });

  it('refuses a FIFO without blocking, and a device, a link out and a missing file are told apart', () => {
    execFileSync('mkfifo', [join(root, 'pipe')]);
    symlinkSync('/dev/zero', join(root, 'zero'));
    assert.deepEqual(readBoundedFile(join(root, 'pipe'), options), { status: 'refused', reason: 'it is a named pipe (FIFO), not a regular file' });
    assert.deepEqual(readBoundedFile(join(root, 'zero'), options), { status: 'refused', reason: 'it leads outside the workspace, to /dev/zero' });
    assert.deepEqual(readBoundedFile('/dev/zero', { ...options, within: '/dev' }), { status: 'refused', reason: 'it is a device, not a regular file' });
    assert.deepEqual(readBoundedFile(join(root, 'absent'), options), { status: 'missing' });
  });

  it("read_file's rules: a link to a secret and a hard link are refused; without them the same files are read", () => {
    writeFileSync(join(root, '.env'), 'KEY=1\n');
    symlinkSync('.env', join(root, 'notes.md'));
    writeFileSync(join(base, 'elsewhere.txt'), 'outside\n');
    linkSync(join(base, 'elsewhere.txt'), join(root, 'hard.md'));
    const rules = { ...options, readFileRules: { secretPatterns: [] } };
    assert.match(String((readBoundedFile(join(root, 'notes.md'), rules) as { reason?: string }).reason), /a link to \.env, a secret file/);
    assert.match(String((readBoundedFile(join(root, 'hard.md'), rules) as { reason?: string }).reason), /hard link/);
    assert.equal(readBoundedFile(join(root, 'notes.md'), options).status, 'read');
    assert.equal(readBoundedFile(join(root, 'hard.md'), options).status, 'read');
  });

  it('an instruction file swapped for a link out after it was resolved is not followed when opened (O_NOFOLLOW)', () => {
    const outside = join(base, 'outside-secret.txt');
    writeFileSync(outside, 'TOP SECRET, outside the workspace\n');
    const file = join(root, 'AGENTS.md');
    writeFileSync(file, 'harmless\n');
    // The swap lands between the check (realpath) and the open, as a racing process's would.
    const realRealpath = fs.realpathSync;
    (fs as { realpathSync: unknown }).realpathSync = (target: string) => {
      const real = realRealpath(target);
      if (target === file) {
        unlinkSync(file);
        symlinkSync(outside, file);
      }
      return real;
    };
    syncBuiltinESMExports();
    try {
      // The open itself must refuse it (ELOOP): the /proc/self/fd check after it exists only where
      // there is a /proc.
      assert.deepEqual(readBoundedFile(file, options), { status: 'refused', reason: 'it changed into a link while it was being opened' });
    } finally {
      (fs as { realpathSync: unknown }).realpathSync = realRealpath;
      syncBuiltinESMExports();
      rmSync(file);
    }
  });
});
