import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ModelMessage, Tool } from 'ai';
import { Chalk } from 'chalk';
import { SessionCheckpoints } from '../../src/checkpoints/session-checkpoints.ts';
import { createTools } from '../../src/tools/registry/create-tools.ts';
import { redoCommand, rewindCommand, undoCommand } from '../../src/ui/commands/checkpoint-commands.ts';
import type { ReplState } from '../../src/ui/state/repl-state.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

/** Two turns, each writing a file, with the history a real turn leaves; the state the commands see, answers scripted. */
async function session(answers: string[]) {
  const workspace = tempWorkspace('sylvan-rewind-ui-');
  const checkpoints = new SessionCheckpoints({ home: tempWorkspace('sylvan-rewind-ui-home-'), sessionId: 's', workspaceRoot: workspace });
  const tools = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 10_000, checkpoints: () => checkpoints });
  let messages: ModelMessage[] = [];
  for (const [index, name] of ['one', 'two'].entries()) {
    checkpoints.beginTurn(`make ${name}`, messages.length);
    await (tools.write_file as Tool).execute!({ path: `${name}.txt`, content: `${name}\n` }, { toolCallId: `c${index}`, messages: [], context: {} });
    messages = [...messages, { role: 'user', content: `make ${name}` }, { role: 'assistant', content: 'done.' }];
  }
  const printed: string[] = [];
  const state = {
    print: (line = '') => printed.push(line),
    dim: (text: string) => text,
    colour: new Chalk({ level: 0 }),
    ask: async (question: string) => {
      printed.push(question);
      return answers.shift();
    },
    runtime: {
      checkpoints,
      conversation: { get messages() { return messages; } },
      rewindConversation: (count: number) => (messages = messages.slice(0, count)),
    },
  } as unknown as ReplState;
  return { workspace, checkpoints, state, printed, messages: () => messages };
}

describe('/rewind, /undo and /redo', () => {
  test('files only: later files undone, the conversation kept, and /redo brings them back oldest first', async () => {
    const { workspace, state, printed, messages } = await session(['1', 'f']);
    await rewindCommand('', state);
    assert.match(printed.join('\n'), / {4}1\. \d\d:\d\d {2}make one {2}· one\.txt\n {4}2\. \d\d:\d\d {2}make two {2}· two\.txt/);
    assert.ok(!existsSync(join(workspace, 'one.txt')) && !existsSync(join(workspace, 'two.txt')));
    assert.equal(messages().length, 4);
    await redoCommand(state);
    assert.ok(existsSync(join(workspace, 'one.txt')) && !existsSync(join(workspace, 'two.txt')), 'redo brings back turn 1 first');
    await redoCommand(state);
    assert.ok(existsSync(join(workspace, 'two.txt')));
  });

  test('conversation only: the history is cut before the turn, the files keep their changes, and the turn is gone from the list', async () => {
    const { workspace, checkpoints, state, printed, messages } = await session(['c']);
    await rewindCommand('2', state);
    assert.deepEqual(messages(), [{ role: 'user', content: 'make one' }, { role: 'assistant', content: 'done.' }]);
    assert.equal(readFileSync(join(workspace, 'two.txt'), 'utf8'), 'two\n');
    assert.match(printed.join('\n'), /back to before turn 2[\s\S]*Files keep the changes of those turns/);
    assert.deepEqual(checkpoints.turns.map((turn) => turn.id), [1]);
  });

  test('Enter cancels; a summarised conversation can only rewind files; /undo with nothing to undo says so', async () => {
    const cancelled = await session(['']);
    await rewindCommand('1', cancelled.state);
    assert.ok(existsSync(join(cancelled.workspace, 'one.txt')));
    assert.match(cancelled.printed.join('\n'), /Nothing was changed/);

    const summarised = await session([]);
    summarised.state.runtime.rewindConversation!(0);
    await rewindCommand('2', summarised.state);
    assert.match(summarised.printed.join('\n'), /only files can be rewound/);
    assert.ok(!existsSync(join(summarised.workspace, 'two.txt')) && existsSync(join(summarised.workspace, 'one.txt')));

    await undoCommand(summarised.state);
    assert.ok(!existsSync(join(summarised.workspace, 'one.txt')), '/undo skips the turn already undone and takes turn 1');
    await undoCommand(summarised.state);
    assert.match(summarised.printed.at(-1)!, /Nothing to undo/);
  });
  test('a change still being recorded past the wait: each command says so and changes nothing', async () => {
    const { workspace, checkpoints, state, printed, messages } = await session([]);
    // A stopped command that has not ended (the bounded waits themselves are session-checkpoints' tests).
    checkpoints.settled = async () => false;
    for (const [name, run] of [['/undo', () => undoCommand(state)], ['/redo', () => redoCommand(state)], ['/rewind', () => rewindCommand('1', state)]] as const) {
      printed.length = 0;
      await run();
      assert.deepEqual(printed, [
        '  Waiting for a stopped command to end and its changes to be recorded…',
        `  A stopped command has not ended yet, so its changes are not recorded and nothing was changed. Try ${name} again in a moment.`,
      ]);
    }
    assert.ok(existsSync(join(workspace, 'one.txt')) && existsSync(join(workspace, 'two.txt')));
    assert.equal(messages().length, 4);
  });
});
