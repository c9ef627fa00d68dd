import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { Conversation } from '../../src/agent/context/conversation.ts';
import type { Config } from '../../src/config/config.ts';
import type { ModelControl, SessionControl } from '../../src/runtime/runtime.ts';
import { copyCommand, MAX_COPY_BYTES } from '../../src/ui/commands/copy-command.ts';
import { exportCommand } from '../../src/ui/commands/export-command.ts';
import type { CommandState } from '../../src/ui/state/repl-state.ts';

// Issue 32's behaviours for /export and /copy: an existing file is kept unless the user says yes,
// .git/ is never written, and /copy's bound is in bytes, as the terminal counts them.

const workspace = mkdtempSync(join(tmpdir(), 'sylvan-export-guards-'));
after(() => rmSync(workspace, { recursive: true, force: true }));

const session: ModelMessage[] = [
  { role: 'user', content: 'hello' },
  { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
];

/** The parts of the REPL state /export and /copy read; `answers` are the user's replies, undefined for end of input. */
function replState(messages: ModelMessage[], options: { answers?: (string | undefined)[]; terminal?: string[] } = {}) {
  const printed: string[] = [];
  const asked: string[] = [];
  const answers = [...(options.answers ?? [])];
  const runtime: Pick<SessionControl, 'conversation' | 'sessionId' | 'redact'> & Pick<ModelControl, 'model'> = {
    conversation: new Conversation(messages),
    sessionId: 'session-9',
    model: 'qwen-plus',
    redact: (text) => text,
  };
  const state = {
    config: { cwd: workspace, secretPatterns: [], secrets: [] } as unknown as Config,
    runtime,
    print: (line = '') => printed.push(line),
    dim: (text: string) => text,
    ask: async (question: string) => {
      asked.push(question);
      return answers.shift();
    },
    ...(options.terminal && { writeTerminal: (bytes: string) => options.terminal!.push(bytes) }),
  } as unknown as CommandState<typeof runtime>;
  return { state, printed, asked };
}

describe('/export onto an existing file', () => {
  for (const [label, answer] of [['Enter', ''], ['end of input', undefined], ['"n"', 'n'], ['anything but yes', 'sure']] as const) {
    test(`${label} keeps the file as it was`, async () => {
      const file = join(workspace, 'kept.md');
      writeFileSync(file, 'my own notes\n');
      const { state, printed, asked } = replState(session, { answers: [answer] });
      await exportCommand('kept.md', state);
      assert.equal(asked.length, 1, 'the user was not asked');
      assert.deepEqual(printed, ['  Not exported.']);
      assert.equal(readFileSync(file, 'utf8'), 'my own notes\n');
    });
  }

  test('"yes" replaces it', async () => {
    const file = join(workspace, 'replaced.md');
    writeFileSync(file, 'my own notes\n');
    await exportCommand('replaced.md', replState(session, { answers: ['yes'] }).state);
    assert.match(readFileSync(file, 'utf8'), /^# Sylvan session session-9\n/);
  });
});

describe('/export under .git/', () => {
  for (const path of ['.git/hooks/pre-commit', 'sub/.git/config', '.GIT/info/exclude']) {
    test(`${path} is refused and nothing is written`, async () => {
      mkdirSync(join(workspace, path, '..'), { recursive: true });
      const { state, printed } = replState(session);
      await exportCommand(path, state);
      assert.match(printed[0] ?? '', /^ {2}Not exported: writing .* is refused: files under \.git\/ control git itself/);
      assert.equal(existsSync(join(workspace, path)), false);
    });
  }
});

describe('/copy counts its 100 kB in UTF-8 bytes', () => {
  test('an answer of fewer characters than the bound but more bytes (Chinese, 3 bytes each) is not sent', () => {
    const written: string[] = [];
    const answer = '好'.repeat(40_000);
    assert.ok(answer.length < MAX_COPY_BYTES && Buffer.byteLength(answer) > MAX_COPY_BYTES);
    const { state, printed } = replState([{ role: 'user', content: 'q' }, { role: 'assistant', content: answer }], { terminal: written });
    copyCommand(state);
    assert.deepEqual(written, []);
    assert.deepEqual(printed, ['  The last answer is 120 kB; /copy sends at most 100 kB. /export writes the session to a file.']);
  });

  test('one of exactly 100,000 bytes is sent', () => {
    const written: string[] = [];
    const { state } = replState([{ role: 'user', content: 'q' }, { role: 'assistant', content: `${'好'.repeat(33_333)}x` }], { terminal: written });
    copyCommand(state);
    assert.equal(written.length, 1);
  });
});
