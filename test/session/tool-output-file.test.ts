import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { saveToolOutput } from '../../src/session/tool-output-file.ts';

const home = mkdtempSync(join(tmpdir(), 'sylvan-tool-output-'));
after(() => rmSync(home, { recursive: true, force: true }));

describe('saveToolOutput: a long tool output kept beside the session', () => {
  test('written whole into the session folder, private, with the secrets redacted and nothing left half-written', async () => {
    const text = `${'row\n'.repeat(2_000)}the key is sk-test-0123456789abcdef\n`;
    const path = await saveToolOutput({ home, sessionId: 's-1', toolName: 'run_command', toolCallId: 'call_abc', text, secrets: ['sk-test-0123456789abcdef'] });
    const folder = join(home, 'sessions', 's-1', 'tool-output');
    assert.equal(path, join(folder, 'run_command-call_abc.txt'));
    assert.equal(readFileSync(path, 'utf8'), `${'row\n'.repeat(2_000)}the key is [redacted]\n`);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(folder), ['run_command-call_abc.txt'], 'no temp file is left');
  });

  test("the model's names never leave the folder: a call id with slashes or dots becomes one safe file name", async () => {
    const path = await saveToolOutput({ home, sessionId: 's-1', toolName: 'mcp__x/../y', toolCallId: '../../escape', text: 'x', secrets: [] });
    assert.equal(path, join(home, 'sessions', 's-1', 'tool-output', 'mcp__x_y-_escape.txt'));
  });

  test('a failure is one line saying why', async () => {
    const blocked = mkdtempSync(join(tmpdir(), 'sylvan-tool-output-'));
    writeFileSync(join(blocked, 'sessions'), 'a file where the folder should be');
    await assert.rejects(
      saveToolOutput({ home: blocked, sessionId: 's-1', toolName: 'run_command', toolCallId: 'c', text: 'x', secrets: [] }),
      /^Error: the full output could not be saved \(part of the path is a file, not a folder\)$/,
    );
    rmSync(blocked, { recursive: true, force: true });
  });
});
