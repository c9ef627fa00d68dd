import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadInstructionFiles } from '../../src/agent/instructions/project-instructions.ts';

const base = mkdtempSync(join(tmpdir(), 'sylvan-instructions-'));
after(() => rmSync(base, { recursive: true, force: true }));

function place(name: string): { workspace: string; home: string } {
  const workspace = join(base, name, 'workspace');
  const home = join(base, name, 'home');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { workspace, home };
}

describe('loadInstructionFiles', () => {
  it('a 1 GB SYLVAN.md: its excerpt in well under a second, the size in the note', () => {
    const { workspace, home } = place('huge');
    writeFileSync(join(workspace, 'SYLVAN.md'), `Always answer in haiku.\n${'x'.repeat(20_000)}`);
    execFileSync('truncate', ['-s', '1G', join(workspace, 'SYLVAN.md')]);
    const started = performance.now();
    const { files } = loadInstructionFiles(workspace, home);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 1_000, `${elapsed} ms`);
    assert.equal(files[0]?.cutFrom, 1024 ** 3);
    assert.ok(files[0]?.text.startsWith('Always answer in haiku.'));
    assert.ok(!files[0]?.text.includes('\0'));
  });

  it('a file of NUL bytes (sparse, or binary) is not text: refused with a line, nothing sent', () => {
    const { workspace, home } = place('sparse');
    execFileSync('truncate', ['-s', '1M', join(workspace, 'AGENTS.md')]);
    assert.deepEqual(loadInstructionFiles(workspace, home), { files: [], refused: ['AGENTS.md was not read: it is not a text file'] });
  });

  it('$SYLVAN_HOME/AGENTS.md must stay inside $SYLVAN_HOME, and the secret patterns of the settings apply', () => {
    const { workspace, home } = place('links');
    writeFileSync(join(base, 'links', 'elsewhere.md'), 'outside\n');
    symlinkSync('../elsewhere.md', join(home, 'AGENTS.md'));
    writeFileSync(join(workspace, 'private.md'), 'SECRET-NOTES\n');
    symlinkSync('private.md', join(workspace, 'SYLVAN.md'));
    const { files, refused } = loadInstructionFiles(workspace, home, ['private.md']);
    assert.deepEqual(files, []);
    assert.match(refused[0] ?? '', /^\$SYLVAN_HOME\/AGENTS\.md was not read: it leads outside \$SYLVAN_HOME/);
    assert.match(refused[1] ?? '', /^SYLVAN\.md was not read: it is a link to private\.md, a secret file/);
  });
});
