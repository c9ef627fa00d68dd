import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls } from '../helpers/dashscope-server.ts';

const KEY = 'sk-sylvan-modes-print-7c21';

describe('approval modes in print mode', { timeout: 60_000 }, () => {
  test('-p --mode plan: no write or command tool is offered, the model is told it plans, a write is refused and nothing is written, even with --yes', async () => {
    const { server, cwd, result } = await runCli({ inProcess: true, server: { replies: [toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'x.txt', content: 'x\n' } }]), text('Here is the plan.')] }, key: KEY, args: ['-p', '--mode', 'plan', '--yes', 'plan the change'] });
    assert.equal(result.code, 0, result.stderr);
    const offered = (requestAt(server, 0).body?.tools ?? []).map((tool) => tool.function.name);
    assert.deepEqual(offered.filter((name) => ['write_file', 'edit_file', 'run_command'].includes(name)), []);
    assert.ok(offered.includes('read_file'), offered.join(', '));
    assert.match(String(requestAt(server, 0).body?.messages?.[0]?.content), /PLAN MODE is on/);
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /plan mode/);
    assert.equal(existsSync(join(cwd, 'x.txt')), false);
  });

  test('-p with SYLVAN_MODE=auto-edit applies an edit without --yes, and still denies a command', async () => {
    const cwd = tempWorkspace();
    writeFileSync(join(cwd, 'a.txt'), 'old\n');
    const { server, result } = await runCli({ inProcess: true, server: {
        replies: [
          toolCalls([
            { id: 'call_e', name: 'edit_file', arguments: { path: 'a.txt', old_text: 'old', new_text: 'new' } },
            { id: 'call_c', name: 'run_command', arguments: { command: 'touch ran.txt' } },
          ]),
          text('Edited.'),
        ],
      }, key: KEY, cwd, env: { SYLVAN_MODE: 'auto-edit' }, args: ['-p', 'edit and run'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(cwd, 'a.txt'), 'utf8'), 'new\n');
    assert.equal(existsSync(join(cwd, 'ran.txt')), false);
    assert.match(toolResultText(requestAt(server, 1), 'call_c'), /--yes/);
  });
});
