import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Tool } from 'ai';
import { checkpointFolder } from '../../src/checkpoints/checkpoint-store.ts';
import { SessionCheckpoints, type SessionCheckpointsOptions } from '../../src/checkpoints/session-checkpoints.ts';
import { createTools } from '../../src/tools/registry/create-tools.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const never = async () => false;

/** A workspace, a home, one session's checkpoints and the real write_file wired to them. */
function setUp(bounds?: SessionCheckpointsOptions['bounds']) {
  const workspace = tempWorkspace('sylvan-index-log-ws-');
  const home = tempWorkspace('sylvan-index-log-home-');
  const open = () => new SessionCheckpoints({ home, sessionId: 's-1', workspaceRoot: workspace, bounds });
  const checkpoints = open();
  const tools = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000, checkpoints: () => checkpoints });
  const write = (path: string, content: string) =>
    (tools.write_file as Tool).execute!({ path, content }, { toolCallId: 'call-write', messages: [], context: {} }) as Promise<string>;
  /** One turn that writes `content` to `path`, its checkpoint saved. */
  const turn = async (path: string, content: string) => {
    checkpoints.beginTurn(`write ${content.trim()}`, 0);
    await write(path, content);
    await checkpoints.settled();
  };
  return { workspace, folder: checkpointFolder(home, 's-1'), checkpoints, open, turn };
}

describe('the checkpoint index is appended to, turn by turn', () => {
  test('a turn after the first leaves index.json as it was and adds to the log; a new process sees every turn and can undo the last', async () => {
    const { workspace, folder, open, turn } = setUp();
    await turn('a.txt', 'one\n');
    const index = join(folder, 'index.json');
    const written = { text: readFileSync(index, 'utf8'), inode: statSync(index).ino };
    for (const content of ['two\n', 'three\n', 'four\n']) await turn('a.txt', content);
    assert.deepEqual({ text: readFileSync(index, 'utf8'), inode: statSync(index).ino }, written);
    assert.ok(readFileSync(join(folder, 'index.log'), 'utf8').split('\n').length > 3);

    const again = open();
    assert.deepEqual(
      again.turns.map((record) => [record.words, record.changes.length]),
      [['write one', 1], ['write two', 1], ['write three', 1], ['write four', 1]],
    );
    await again.undo(again.undoable!, never);
    assert.equal(readFileSync(join(workspace, 'a.txt'), 'utf8'), 'three\n');
  });

  test('a log line cut off by a crash is skipped, and a log left over from before the index was rewritten is not applied over it', async () => {
    const { folder, checkpoints, open, turn } = setUp();
    await turn('a.txt', 'one\n');
    await turn('a.txt', 'two\n');
    const log = join(folder, 'index.log');
    const before = join(folder, 'index.log.before-undo');
    copyFileSync(log, before);
    // /undo writes the whole index; a crash right after it leaves the old log beside the new index.
    await checkpoints.undo(checkpoints.undoable!, never);
    copyFileSync(before, log);
    appendFileSync(log, '{"generation":1,"turn":{"id":3,"wor');

    const again = open();
    assert.deepEqual(
      again.turns.map((record) => [record.words, record.undone]),
      [['write one', false], ['write two', true]],
    );
    assert.equal(again.redoable?.words, 'write two');
  });

  test('a turn saved by the next process after a cut-off log line is kept', async () => {
    const { folder, open, turn } = setUp();
    await turn('a.txt', 'one\n');
    await turn('a.txt', 'two\n');
    appendFileSync(join(folder, 'index.log'), '{"generation":1,"tu');
    const next = open();
    next.beginTurn('write three', 0);
    await next.settled();
    assert.deepEqual(open().turns.map((record) => record.words), ['write one', 'write two', 'write three']);
  });

  test('an older turn dropped past the turn limit is still dropped for the next process', async () => {
    const { open, turn } = setUp({ maxTurns: 2 });
    for (const content of ['one\n', 'two\n', 'three\n']) await turn('a.txt', content);
    assert.deepEqual(
      open().turns.map((record) => [record.words, record.dropped === true, record.changes.length]),
      [['write one', true, 0], ['write two', false, 1], ['write three', false, 1]],
    );
  });
});
