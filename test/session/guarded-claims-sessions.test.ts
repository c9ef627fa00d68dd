import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { acquireSessionLock, SessionLockedError } from '../../src/session/session-lock.ts';
import { createSession, loadSession } from '../../src/session/store.ts';

// Issue 19 §1, sessions: a lock left by a dead process is taken over; releasing never deletes a
// lock that another live process holds. History: a second result for the same tool call is never
// kept, wherever the first one is.

const root = mkdtempSync(join(tmpdir(), 'sylvan-claims-sessions-'));
after(() => rmSync(root, { recursive: true, force: true }));
let count = 0;
const lockPath = () => {
  const folder = join(root, `locks-${++count}`);
  mkdirSync(folder);
  return join(folder, 'session.lock');
};
const holder = (path: string) => readFileSync(path, 'utf8').trim();

/** The pid of a process that has ended (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** A live process of our own for the test's length; killed by the returned function. */
function livePid(): { pid: number; end: () => void } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  return { pid: child.pid!, end: () => child.kill('SIGKILL') };
}

describe('the session lock', () => {
  test("a lock left by a process that is gone is taken over, holding this process's id", () => {
    const path = lockPath();
    writeFileSync(path, `${deadPid()}\n`);
    const release = acquireSessionLock(path, 's1');
    assert.equal(holder(path), String(process.pid));
    release();
    assert.equal(existsSync(path), false, 'its own lock is removed on release');
  });

  test('a lock a live process holds is not taken', (context) => {
    const other = livePid();
    context.after(other.end);
    const path = lockPath();
    writeFileSync(path, `${other.pid}\n`);
    assert.throws(() => acquireSessionLock(path, 's2'), (error: unknown) => error instanceof SessionLockedError && error.pid === other.pid);
    assert.equal(holder(path), String(other.pid));
  });

  test('releasing leaves alone a lock that another live process holds by then', (context) => {
    const other = livePid();
    context.after(other.end);
    const path = lockPath();
    const release = acquireSessionLock(path, 's3');
    // Ours was taken over meanwhile (say this process was stopped long enough to look dead).
    writeFileSync(path, `${other.pid}\n`);
    release();
    assert.equal(existsSync(path), true, "the other process's lock was deleted");
    assert.equal(holder(path), String(other.pid));
  });
});

describe('a second result for the same tool call', () => {
  const home = join(root, 'home');
  const call = (id: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: 'a' } }] });
  const result = (id: string, value: string): ModelMessage => ({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output: { type: 'text', value } }],
  });
  const resultsOf = (messages: readonly ModelMessage[], id: string) =>
    messages.flatMap((message) =>
      Array.isArray(message.content) ? message.content.filter((part) => part.type === 'tool-result' && part.toolCallId === id) : [],
    );

  /** Saves `messages` as a session, as Sylvan does, and loads it back as --resume would. */
  function savedAndLoaded(messages: ModelMessage[]) {
    const writer = createSession({ home, cwd: root, provider: 'mock', model: 'mock' });
    for (const message of messages) writer.appendMessage(message);
    writer.close();
    return loadSession(home, writer.id).messages;
  }

  test('in the next tool message: the first is kept, the second dropped', () => {
    const loaded = savedAndLoaded([{ role: 'user', content: 'go' }, call('c1'), result('c1', 'first'), result('c1', 'second'), { role: 'user', content: 'more' }]);
    assert.deepEqual(
      resultsOf(loaded, 'c1').map((part) => (part as { output: { value: string } }).output.value),
      ['first'],
    );
  });

  test('after a result inside the assistant message (a provider-executed tool): the tool message one is dropped', () => {
    const answeredInside: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c2', toolName: 'web_search', input: { q: 'x' }, providerExecuted: true },
        { type: 'tool-result', toolCallId: 'c2', toolName: 'web_search', output: { type: 'text', value: 'inside' } },
      ],
    };
    const loaded = savedAndLoaded([{ role: 'user', content: 'go' }, answeredInside, result('c2', 'again'), { role: 'user', content: 'more' }]);
    assert.equal(resultsOf(loaded, 'c2').length, 1, JSON.stringify(loaded));
  });
});
