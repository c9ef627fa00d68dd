import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { INTERRUPTED_TOOL_RESULT_TEXT } from '../../src/agent/context/history-repair.ts';
import { loadSession } from '../../src/session/store.ts';
import { latestSession, listSessions } from '../../src/session/session-list.ts';
import { createSession, openSessionForAppend } from '../../src/session/session-writer.ts';
import { sessionsDirectory } from '../../src/session/session-paths.ts';

const fixedNow = () => new Date('2026-11-30T07:13:53.123Z');

const conversation: ModelMessage[] = [
  { role: 'user', content: '你好，帮我看看杭州明天的天气。' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: '好的，我查一下。' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: { city: '杭州', day: '明天' } },
    ],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', output: { type: 'json', value: { sky: '多云', high: 18 } } }],
  },
  { role: 'assistant', content: '杭州明天多云，最高 18°C。' },
];

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sylvan-store-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const start = (cwd = '/projects/a', now = fixedNow) =>
  createSession({ home, cwd, provider: 'dashscope', model: 'qwen-plus', now });

const write = (cwd: string, messages: ModelMessage[], modifiedSecondsAgo: number): string => {
  const writer = start(cwd, () => new Date());
  for (const message of messages) writer.appendMessage(message);
  writer.close();
  const time = new Date(Date.now() - modifiedSecondsAgo * 1000);
  utimesSync(writer.path, time, time);
  return writer.id;
};

describe('createSession and loadSession', () => {
  test('round-trips a conversation with Chinese text, tool calls and JSON results', () => {
    const writer = start();
    for (const message of conversation) writer.appendMessage(message);
    writer.appendUsage({ inputTokens: 120, outputTokens: 30, cachedInputTokens: 0 });
    writer.appendUsage({ inputTokens: 200, outputTokens: 10, cachedInputTokens: 100 });
    writer.close();
    assert.equal(writer.lastError, undefined);

    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.messages, conversation);
    assert.deepEqual(loaded.warnings, []);
    assert.deepEqual(loaded.usage, { inputTokens: 320, outputTokens: 40, cachedInputTokens: 100 });
    assert.deepEqual(loaded.meta, {
      type: 'meta',
      version: 1,
      id: writer.id,
      cwd: '/projects/a',
      provider: 'dashscope',
      model: 'qwen-plus',
      createdAt: '2026-11-30T07:13:53.123Z',
    });
  });

  test('uses a readable, time-sortable id and writes one JSON line per entry, privately', () => {
    const writer = start();
    assert.match(writer.id, /^2026-11-30T07-13-53-123Z-[0-9a-f]{4}$/);
    assert.equal(writer.path, join(sessionsDirectory(home), `${writer.id}.jsonl`));
    writer.appendMessage(conversation[0] as ModelMessage);
    const lines = readFileSync(writer.path, 'utf8').split('\n');
    assert.equal(lines.length, 3, 'meta, message, and the empty string after the last newline');
    assert.equal(JSON.parse(lines[0] as string).type, 'meta');
    assert.equal(JSON.parse(lines[1] as string).message.content, '你好，帮我看看杭州明天的天气。');
    assert.equal(statSync(writer.path).mode & 0o777, 0o600);
    assert.equal(statSync(sessionsDirectory(home)).mode & 0o777, 0o700);
    writer.close();
  });

  test('skips a damaged middle line and a half-written last line, with warnings', () => {
    const writer = start();
    for (const message of conversation) writer.appendMessage(message);
    writer.close();
    const lines = readFileSync(writer.path, 'utf8').split('\n');
    lines[2] = '{"type":"message","message":{"role":"assis';
    writeFileSync(writer.path, `${lines.join('\n')}{"type":"message","message":{"role":"user","cont`);

    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.warnings, [
      `session ${writer.id}: line 3 is damaged and was skipped`,
      `session ${writer.id}: line 6 was cut off while being written and was skipped`,
    ]);
    assert.deepEqual(loaded.messages, [conversation[0], conversation[3]], 'the orphaned tool result is dropped too');
  });

  test('appending after a half-written last line starts a fresh line', () => {
    const writer = start();
    writer.appendMessage(conversation[0] as ModelMessage);
    writer.close();
    appendFileSync(writer.path, '{"type":"message","message":{"ro');

    const continued = openSessionForAppend(home, writer.id);
    continued.appendMessage({ role: 'assistant', content: '你好！' });
    continued.close();
    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.messages, [conversation[0], { role: 'assistant', content: '你好！' }]);
    assert.equal(loaded.warnings.length, 1);
  });

  test('a compaction replaces every earlier message on load', () => {
    const writer = start();
    for (const message of conversation) writer.appendMessage(message);
    const summary: ModelMessage[] = [
      { role: 'user', content: 'Summary of the earlier conversation: asked about Hangzhou weather (cloudy, 18°C).' },
      { role: 'assistant', content: 'Understood.' },
    ];
    writer.appendCompaction(summary);
    writer.appendMessage({ role: 'user', content: '那上海呢？' });
    writer.close();
    assert.deepEqual(loadSession(home, writer.id).messages, [...summary, { role: 'user', content: '那上海呢？' }]);
  });

  test('a session killed mid-tool-call loads as a valid history', () => {
    const writer = start();
    writer.appendMessage(conversation[0] as ModelMessage);
    writer.appendMessage(conversation[1] as ModelMessage);
    writer.close();
    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.messages.at(-1), {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', output: { type: 'error-text', value: INTERRUPTED_TOOL_RESULT_TEXT } }],
    });
    assert.deepEqual(loaded.warnings, [], 'a call left open is counted, not warned about');
    assert.equal(loaded.unfinishedCalls, 1);
  });

  test('skips entry types it does not know, silently', () => {
    const writer = start();
    writer.appendMessage(conversation[0] as ModelMessage);
    writer.close();
    appendFileSync(writer.path, '{"type":"bookmark","name":"later"}\n');
    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.messages, [conversation[0]]);
    assert.deepEqual(loaded.warnings, []);
  });

  test('rejects ids that could leave the sessions folder, and reports missing sessions', () => {
    for (const id of ['../secrets', 'a/b', '..', 'x..y', '/etc/passwd', '']) {
      assert.throws(() => loadSession(home, id), /is not a session id/, id);
      assert.throws(() => openSessionForAppend(home, id), /is not a session id/, id);
    }
    assert.throws(() => loadSession(home, '2026-01-01T00-00-00-000Z-0000'), /there is no session "2026-01-01T00-00-00-000Z-0000"/);
    assert.throws(() => openSessionForAppend(home, '2026-01-01T00-00-00-000Z-0000'), /There is no session/);
  });
});

describe('SessionWriter failures', () => {
  test('keeps going when the session folder is removed mid-conversation', () => {
    const writer = start();
    writer.appendMessage(conversation[0] as ModelMessage);
    rmSync(sessionsDirectory(home), { recursive: true, force: true });
    assert.doesNotThrow(() => writer.appendMessage(conversation[1] as ModelMessage));
    assert.match(writer.lastError?.message ?? '', /was deleted; this conversation is no longer being saved/);
    assert.doesNotThrow(() => writer.appendMessage(conversation[2] as ModelMessage));
    assert.doesNotThrow(() => writer.close());
  });

  test('keeps going when the session cannot be created at all', () => {
    const notADirectory = join(home, 'file');
    writeFileSync(notADirectory, 'x');
    const writer = createSession({ home: notADirectory, cwd: '/', provider: 'mock', model: 'mock' });
    assert.match(writer.lastError?.message ?? '', /Could not save the session/);
    assert.doesNotThrow(() => writer.appendMessage(conversation[0] as ModelMessage));
    assert.doesNotThrow(() => writer.close());
  });

  test('a message that cannot be written as JSON is reported and does not damage the file', () => {
    const writer = start();
    writer.appendMessage({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: { size: 10n } }] });
    assert.match(writer.lastError?.message ?? '', /cannot be written as JSON/);
    writer.appendMessage(conversation[0] as ModelMessage);
    writer.close();
    const loaded = loadSession(home, writer.id);
    assert.deepEqual(loaded.messages, [conversation[0]]);
    assert.deepEqual(loaded.warnings, []);
  });

  test('a created session that never got a message is removed on close; a continued one is kept', () => {
    const empty = start();
    empty.close();
    assert.equal(existsSync(empty.path), false);

    const kept = start();
    kept.appendMessage(conversation[0] as ModelMessage);
    kept.close();
    const continued = openSessionForAppend(home, kept.id);
    continued.close();
    assert.equal(existsSync(kept.path), true);
  });
});

describe('listSessions and latestSession', () => {
  test('lists newest first with folder, model, message count and a one-line title', () => {
    const long = `Please refactor\nthe   parser so that ${'it handles every edge case '.repeat(10)}`;
    const older = write('/projects/a', [{ role: 'user', content: long }, { role: 'assistant', content: 'ok' }], 300);
    const newer = write('/projects/b', [{ role: 'user', content: '你好' }], 10);
    const middle = write('/projects/a', [{ role: 'user', content: [{ type: 'text', text: 'fix tests' }] }], 100);

    const all = listSessions(home);
    assert.deepEqual(all.map((summary) => summary.id), [newer, middle, older]);
    const first = all[2];
    assert.equal(first?.cwd, '/projects/a');
    assert.equal(first?.provider, 'dashscope');
    assert.equal(first?.model, 'qwen-plus');
    assert.equal(first?.messageCount, 2);
    assert.equal(first?.turns, 1);
    assert.equal(first?.title.length, 200);
    assert.match(first?.title ?? '', /^Please refactor the parser so that it handles every edge .*…$/);
    assert.equal(all[0]?.title, '你好');
    assert.ok(Date.parse(all[0]?.updatedAt ?? '') > Date.parse(all[1]?.updatedAt ?? ''));
  });

  test('filters by folder, honours the limit and leaves out empty sessions', () => {
    const older = write('/projects/a', [{ role: 'user', content: 'one' }], 300);
    write('/projects/b', [{ role: 'user', content: 'two' }], 200);
    const newest = write('/projects/a', [{ role: 'user', content: 'three' }], 100);
    const empty = start('/projects/a', () => new Date());
    writeFileSync(join(sessionsDirectory(home), 'not-a-session.txt'), 'x');
    writeFileSync(join(sessionsDirectory(home), 'garbage.jsonl'), 'not json\n');

    assert.deepEqual(listSessions(home, { cwd: '/projects/a' }).map((summary) => summary.id), [newest, older]);
    assert.deepEqual(listSessions(home, { limit: 1 }).map((summary) => summary.id), [newest]);
    assert.ok(listSessions(home, { includeEmpty: true }).some((summary) => summary.id === empty.id));
    assert.equal(latestSession(home, '/projects/a')?.id, newest);
    assert.equal(latestSession(home, '/projects/elsewhere'), undefined);
    empty.close();
  });

  test('counts messages after a compaction and keeps the original title', () => {
    const writer = start();
    for (const message of conversation) writer.appendMessage(message);
    writer.appendCompaction([
      { role: 'user', content: 'Summary of the earlier conversation: weather.' },
      { role: 'assistant', content: 'Understood.' },
    ]);
    writer.appendMessage({ role: 'user', content: 'next' });
    writer.close();
    const [summary] = listSessions(home);
    assert.equal(summary?.messageCount, 3);
    assert.equal(summary?.turns, 1, 'the summary is not a turn, the question after it is');
    assert.equal(summary?.title, '你好，帮我看看杭州明天的天气。');
  });

  test('the title is what was typed, without the attached files; turns count user messages; the branch comes from the meta line', () => {
    const writer = createSession({ home, cwd: '/projects/a', provider: 'dashscope', model: 'qwen-plus', branch: 'feature/picker' });
    writer.appendMessage({ role: 'user', content: 'summarise @notes.md\n\n<file path="notes.md">\n# notes\n</file>' });
    writer.appendMessage({ role: 'assistant', content: 'ok' });
    writer.appendMessage({ role: 'user', content: 'again' });
    writer.close();
    const [summary] = listSessions(home);
    assert.equal(summary?.title, 'summarise @notes.md');
    assert.equal(summary?.turns, 2);
    assert.equal(summary?.branch, 'feature/picker');
    assert.equal(listSessions(home).length, 1);
    const withoutBranch = write('/projects/a', [{ role: 'user', content: 'x' }], 1);
    assert.equal(listSessions(home).find((found) => found.id === withoutBranch)?.branch, undefined);
  });

  test('a home without sessions lists nothing', () => {
    assert.deepEqual(listSessions(join(home, 'missing')), []);
    assert.equal(latestSession(join(home, 'missing'), '/'), undefined);
  });
});
