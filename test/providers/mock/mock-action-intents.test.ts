import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { decideMockReply } from '../../../src/providers/mock/mock-intent.ts';
import { type AvailableTools } from '../../../src/providers/mock/mock-tool-intents.ts';
import { runCli } from '../../helpers/cli.ts';
import { tempWorkspace } from '../../helpers/temp-workspace.ts';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TOOLS: AvailableTools = new Map([
  ['read_file', new Set(['path'])],
  ['write_file', new Set(['path', 'content'])],
  ['calculate', new Set(['expression'])],
  ['run_command', new Set(['command', 'timeout_seconds'])],
  ['edit_file', new Set(['path', 'old_text', 'new_text', 'replace_all'])],
  ['search_files', new Set(['pattern', 'path', 'glob', 'ignore_case'])],
]);

function calls(text: string, tools: AvailableTools = TOOLS) {
  const prompt: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text }] }];
  const reply = decideMockReply(prompt, tools);
  return reply.type === 'tool-calls' ? reply.calls : reply.text;
}

describe('the mock model runs, edits and searches', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['运行 `npm test`', 'run_command', { command: 'npm test' }],
    ['run `cat package.json`', 'run_command', { command: 'cat package.json' }],
    ['帮我执行 `1+1 && ls`', 'run_command', { command: '1+1 && ls' }],
    // The demo's suggestion typed without its backticks.
    ['运行 ls -la', 'run_command', { command: 'ls -la' }],
    ['run ls -la', 'run_command', { command: 'ls -la' }],
    ['帮我执行 npm test。', 'run_command', { command: 'npm test' }],
    ['执行命令：echo hi', 'run_command', { command: 'echo hi' }],
    ['把 foo 改成 bar（在 src/a.ts 里）', 'edit_file', { path: 'src/a.ts', old_text: 'foo', new_text: 'bar' }],
    ['把 "hello world" 替换成 "你好" 在 notes.txt 里', 'edit_file', { path: 'notes.txt', old_text: 'hello world', new_text: '你好' }],
    ['在 a.txt 里把 x 改成 y', 'edit_file', { path: 'a.txt', old_text: 'x', new_text: 'y' }],
    ["replace 'a b' with 'c d' in notes.md", 'edit_file', { path: 'notes.md', old_text: 'a b', new_text: 'c d' }],
    ['在代码里搜索 TODO', 'search_files', { pattern: 'TODO' }],
    ['search the code for createTools.', 'search_files', { pattern: 'createTools' }],
    ['search the code for "foo(bar)"', 'search_files', { pattern: 'foo\\(bar\\)' }],
  ];
  for (const [text, toolName, input] of cases) {
    test(`${text} → ${toolName}`, () => assert.deepEqual(calls(text), [{ toolName, input }]));
  }

  test('a sentence about running is not a command', () => {
    for (const text of ['run the tests', 'how do I run this?', '运行结果怎么样？']) {
      const reply = calls(text);
      assert.ok(typeof reply === 'string' || reply.every((call) => call.toolName !== 'run_command'), `${text}: ${JSON.stringify(reply)}`);
    }
  });

  test('a tool that is not offered is reported missing, not called', () => {
    const reply = calls('运行 `ls`', new Map([['read_file', new Set(['path'])]]));
    assert.equal(typeof reply, 'string');
    assert.match(String(reply), /run_command/);
  });
});

describe('the offline demo', { timeout: 60_000 }, () => {
  test('runs a command, edits a file after approval and searches, answering from the results', async () => {
    const cwd = tempWorkspace();
    try {
      writeFileSync(join(cwd, 'notes.txt'), 'hello there\n');
      const ran = await runCli({ inProcess: true, cwd, args: ['-p', '--yes', 'run `echo from-the-shell`'] });
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /^Ran `echo from-the-shell`: exit code 0/);
      assert.match(ran.stdout, /from-the-shell/);
      const edited = await runCli({ inProcess: true, cwd, args: ['-p', '--yes', '把 hello 改成 goodbye（在 notes.txt 里）'] });
      assert.equal(edited.code, 0, edited.stderr);
      assert.match(edited.stdout, /改好了：Edited notes\.txt: replaced 1 occurrence at line 1\./);
      assert.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'goodbye there\n');
      const searched = await runCli({ inProcess: true, cwd, args: ['-p', 'search the code for goodbye'] });
      assert.equal(searched.code, 0, searched.stderr);
      assert.match(searched.stdout, /notes\.txt:1: goodbye there/);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
