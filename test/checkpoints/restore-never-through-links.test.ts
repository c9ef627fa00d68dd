import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Tool } from 'ai';
import { SessionCheckpoints } from '../../src/checkpoints/session-checkpoints.ts';
import { createTools } from '../../src/tools/registry/create-tools.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const never = async () => false;

/** A workspace with sub/a.txt, a folder outside it holding its own a.txt, and the tools wired to the checkpoints. */
function setUp() {
  const workspace = tempWorkspace('sylvan-links-ws-');
  const outside = tempWorkspace('sylvan-links-outside-');
  mkdirSync(join(workspace, 'sub'));
  writeFileSync(join(workspace, 'sub', 'a.txt'), 'original\n');
  writeFileSync(join(outside, 'a.txt'), 'outside, not to be touched\n');
  const checkpoints = new SessionCheckpoints({ home: tempWorkspace('sylvan-links-home-'), sessionId: 's-1', workspaceRoot: workspace });
  const tools = createTools({ workspaceRoot: workspace, weather: 'sample', secretPatterns: [], toolTimeoutMs: 60_000, checkpoints: () => checkpoints });
  const write = (input: object) => (tools.write_file as Tool).execute!(input, { toolCallId: 'call-write', messages: [], context: {} }) as Promise<string>;
  /** What someone does after the turn: the folder moved away, a link out in its place. */
  const swapForLinkOut = () => {
    renameSync(join(workspace, 'sub'), join(workspace, 'moved-away'));
    symlinkSync(outside, join(workspace, 'sub'));
  };
  return { workspace, outside, checkpoints, write, swapForLinkOut };
}

describe('undo and redo never write through a link out', () => {
  test('undo refuses a file under a folder that has since become a link out of the workspace', async () => {
    const { outside, checkpoints, write, swapForLinkOut } = setUp();
    checkpoints.beginTurn('change a', 0);
    await write({ path: 'sub/a.txt', content: 'changed\n' });
    swapForLinkOut();
    const lines = await checkpoints.undo(checkpoints.undoable!, async () => true);
    assert.deepEqual(lines.map((line) => `${line.path} ${line.outcome}`), ['sub/a.txt failed']);
    assert.match(lines[0]!.reason!, /leads outside the workspace/);
    assert.equal(readFileSync(join(outside, 'a.txt'), 'utf8'), 'outside, not to be touched\n');
  });

  test('redo refuses the same, and leaves the link where it is', async () => {
    const { workspace, outside, checkpoints, write, swapForLinkOut } = setUp();
    checkpoints.beginTurn('change a', 0);
    await write({ path: 'sub/a.txt', content: 'changed\n' });
    await checkpoints.undo(checkpoints.undoable!, never);
    swapForLinkOut();
    const lines = await checkpoints.redo(checkpoints.redoable!, async () => true);
    assert.deepEqual(lines.map((line) => `${line.path} ${line.outcome}`), ['sub/a.txt failed']);
    assert.match(lines[0]!.reason!, /leads outside the workspace/);
    assert.equal(readFileSync(join(outside, 'a.txt'), 'utf8'), 'outside, not to be touched\n');
    assert.ok(lstatSync(join(workspace, 'sub')).isSymbolicLink());
  });
});
