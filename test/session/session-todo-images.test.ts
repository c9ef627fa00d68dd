import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { userContent } from '../../src/agent/loop/image-parts.ts';
import { loadSession } from '../../src/session/store.ts';
import { createSession, openSessionForAppend } from '../../src/session/session-writer.ts';
import { TINY_PNG } from '../helpers/pictures.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sylvan-session-todo-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const start = () => createSession({ home, cwd: '/projects/a', provider: 'dashscope', model: 'qwen3-vl-plus' });

describe('the todo list and pictures in the session file', () => {
  test('the last todo list written is the one loaded, through a /compact, and a resumed writer adds to it', () => {
    const writer = start();
    writer.appendMessage({ role: 'user', content: 'fix the three bugs' });
    writer.appendTodo([{ text: 'bug one', status: 'in_progress' }, { text: 'bug two', status: 'pending' }]);
    writer.appendTodo([{ text: 'bug one', status: 'done' }, { text: 'bug two', status: 'in_progress' }]);
    writer.appendCompaction([{ role: 'user', content: 'summary' }, { role: 'assistant', content: 'ok' }]);
    writer.close();
    assert.deepEqual(loadSession(home, writer.id).todo, [{ text: 'bug one', status: 'done' }, { text: 'bug two', status: 'in_progress' }]);

    const again = openSessionForAppend(home, writer.id);
    again.appendTodo([]);
    again.close();
    assert.deepEqual(loadSession(home, writer.id).todo, [], 'a cleared list stays cleared');
  });

  test('a session without a todo list loads an empty one; a damaged todo line is skipped with a warning', () => {
    const writer = start();
    writer.appendMessage({ role: 'user', content: 'hi' });
    writer.appendTodo([{ text: 'kept', status: 'pending' }]);
    writer.close();
    appendFileSync(writer.path, `${JSON.stringify({ type: 'todo', items: [{ text: 'x', status: 'exploded' }] })}\n`);
    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.todo, [{ text: 'kept', status: 'pending' }]);
    assert.match(loaded.warnings.join('\n'), /line 4 is damaged/);

    const other = start();
    other.appendMessage({ role: 'user', content: 'hi' });
    other.close();
    assert.deepEqual(loadSession(home, other.id).todo, []);
  });

  test('a picture is saved as a note, never as its bytes, and the history loads valid for any model', () => {
    const writer = start();
    writer.appendMessage({ role: 'user', content: userContent('what is this?', [{ name: 'pic.png', mediaType: 'image/png', data: new Uint8Array(TINY_PNG) }]) });
    writer.appendMessage({ role: 'assistant', content: 'A red square.' });
    writer.close();
    const file = readFileSync(writer.path, 'utf8');
    assert.doesNotMatch(file, new RegExp(TINY_PNG.toString('base64').slice(0, 24).replace(/[+/]/g, '.')));
    assert.doesNotMatch(file, /"type":"file"|"0":137/);
    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.warnings, []);
    const parts = loaded.messages[0]!.content as Array<{ type: string; text: string }>;
    assert.deepEqual(parts.map((part) => part.type), ['text', 'text']);
    assert.match(parts[0]!.text, /^\[image pic\.png \(1 KB, sha256 [0-9a-f]{12}\) was attached here/);
    assert.equal(parts[1]!.text, 'what is this?');
  });
});
