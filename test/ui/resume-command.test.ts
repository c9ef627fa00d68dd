import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { loadConfig } from '../../src/config/load-config.ts';
import type { Config } from '../../src/config/config.ts';
import { Conversation } from '../../src/agent/context/conversation.ts';
import type { ResumedHistory, SessionControl } from '../../src/runtime/runtime.ts';
import { createSession } from '../../src/session/session-writer.ts';
import type { CommandState } from '../../src/ui/state/repl-state.ts';
import { resumeCommand } from '../../src/ui/commands/resume-command.ts';

const homes: string[] = [];
afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

function setUp() {
  const home = mkdtempSync(join(tmpdir(), 'sylvan-resume-command-'));
  homes.push(home);
  const config = { ...(loadConfig([], { SYLVAN_HOME: home }, home) as Config), home, cwd: home };
  const save = (question: string, branch?: string) => {
    const writer = createSession({ home, cwd: home, provider: 'mock', model: 'mock', branch });
    writer.appendMessage({ role: 'user', content: question });
    writer.appendMessage({ role: 'assistant', content: `answer to ${question}` });
    writer.close();
    return writer.id;
  };
  const printed: string[] = [];
  const resumed: ResumedHistory[] = [];
  const messages: ModelMessage[] = [{ role: 'user', content: 'current' }];
  const runtime: Pick<SessionControl, 'sessionId' | 'conversation' | 'resumeSession'> = {
    sessionId: 'the-current-one',
    conversation: new Conversation(messages),
    resumeSession: (history) => void resumed.push(history),
  };
  const state = { config, runtime, print: (line = '') => printed.push(line), dim: (text: string) => text, lastToolCalls: [] } as unknown as CommandState<typeof runtime>;
  return { home, save, state, printed, resumed };
}

test('through a pipe, /resume lists the other sessions with their ids; /resume ID goes on with one', async () => {
  const { save, state, printed, resumed } = setUp();
  const first = save('first \x1b[2Jquestion', 'main');
  await resumeCommand('', state);
  assert.match(printed[0] ?? '', new RegExp(`^  ${first}  first ␛\\[2Jquestion  just now · 1 turn · main$`), 'sanitised');
  assert.equal(printed.at(-1), '  Resume one with /resume ID.');
  assert.equal(resumed.length, 0);

  printed.length = 0;
  await resumeCommand(first, state);
  assert.equal(resumed.length, 1);
  assert.deepEqual(resumed[0]?.messages.map((message) => message.content), ['first \x1b[2Jquestion', 'answer to first \x1b[2Jquestion']);
  assert.deepEqual(printed, [`Resumed session ${first} (1 earlier turn).`, 'The session you left is saved: sylvan --resume the-current-one']);
  resumed[0]?.writer.close();
});

test('an unknown id, the current session, or nothing to resume: one line each, nothing switched', async () => {
  const { state, printed, resumed } = setUp();
  await resumeCommand('', state);
  await resumeCommand('the-current-one', state);
  await resumeCommand('2020-01-01T00-00-00-000Z-dead', state);
  assert.equal(printed[0], '  No other saved session to resume.');
  assert.equal(printed[1], '  That is the session you are in.');
  assert.match(printed[2] ?? '', /^ {2}Could not open the session: there is no session "2020-01-01T00-00-00-000Z-dead"/);
  assert.equal(printed.length, 3);
  assert.equal(resumed.length, 0);
});

test('with a picker, Esc stays in this session', async () => {
  const { save, state, printed, resumed } = setUp();
  save('one');
  let offered: string[] = [];
  state.pick = async (request) => {
    offered = request.items.map((item) => item.title);
    return undefined;
  };
  await resumeCommand('', state);
  assert.deepEqual(offered, ['one']);
  assert.deepEqual(printed, ['  Staying in this session.']);
  assert.equal(resumed.length, 0);
});
