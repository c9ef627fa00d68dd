import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson } from '../../src/agent/loop/guards.ts';
import { createListFilesTool } from '../../src/tools/files/list-files.ts';
import { matchesGlob } from '../../src/shared/glob.ts';
import { previewValue } from '../../src/shared/text/preview-value.ts';
import { formatCall } from '../../src/shared/text/call-text.ts';
import { requestAt } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';

const KEY = 'sk-hardening-input-3391';
const deepArray = (levels: number): unknown => {
  let value: unknown = [];
  for (let level = 0; level < levels; level++) value = [value];
  return value;
};
const deepArguments = `{"expression":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
const hugeName = 'x'.repeat(100_000);
const hostileReplies = (): Reply[] => [
  toolCalls([
    { id: 'call_deep', name: 'calculate', arguments: deepArguments },
    { id: 'call_huge', name: hugeName, arguments: { a: 'y'.repeat(100_000) } },
  ]),
  text('done'),
  text('second answer'),
];
const print = runCli({ inProcess: true, server: { replies: hostileReplies() }, key: KEY, args: ['-p', 'hi'] });
const piped = runCli({ inProcess: true, server: { replies: hostileReplies() }, key: KEY, stdin: 'first\nsecond\n' });

describe('no tool input can crash the display or the agent (issue 9, item 7)', { timeout: 60_000 }, () => {
  test('previewValue is bounded and never throws: 10,000 levels, cycles, throwing getters, 100k strings', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const hostile = Object.defineProperty({}, 'boom', { enumerable: true, get: () => { throw new Error('no'); } });
    for (const value of [deepArray(10_000), cyclic, hostile, 'z'.repeat(100_000), { ['k'.repeat(100_000)]: 1 }, 10n, undefined]) {
      const shown = previewValue(value, 80);
      assert.ok(shown.length <= 80, `${shown.length} characters`);
    }
    assert.equal(previewValue({ city: '北京' }, 80), '{"city":"北京"}');
  });

  test('formatCall shortens a 100k-character tool name and argument', () => {
    const shown = formatCall(hugeName, { a: 'y'.repeat(100_000), deep: deepArray(10_000) });
    assert.ok(shown.length < 400, `${shown.length} characters`);
  });

  test('the repeated-call guard keys a 10,000-level input without overflowing', () => {
    assert.equal(canonicalJson(deepArray(10_000)).length, 20_002);
    assert.equal(canonicalJson({ b: 1, a: [undefined, 2] }), '{"a":[null,2],"b":1}');
  });

  test('print mode: the hostile calls fail as tool errors, the answer arrives, exit 0', async () => {
    const { server, result } = await print;
    assert.equal(result.code, 0, result.stderr.slice(0, 2000));
    assert.equal(result.stdout, 'done\n');
    assert.doesNotMatch(result.stderr, /Maximum call stack/);
    for (const line of result.stderr.split('\n')) assert.ok(line.length < 400, `a ${line.length}-character line was shown`);
    assert.equal(requestAt(server, 1).invalid, undefined);
  });

  test('a piped REPL survives them and answers the next question', async () => {
    const { result } = await piped;
    assert.equal(result.code, 0, result.stdout.slice(0, 2000));
    assert.match(result.stdout, /done\n[\s\S]*second answer/);
    assert.doesNotMatch(result.stdout + result.stderr, /Maximum call stack/);
  });
});

describe('brace expansion and pattern matching are bounded (issue 9, item 7)', { timeout: 10_000 }, () => {
  test('list_files refuses {1..100000} at once instead of freezing', async () => {
    const listFiles = createListFilesTool({ workspaceRoot: tempWorkspace() });
    const started = performance.now();
    await assert.rejects(
      listFiles.execute({ pattern: 'file-{1..100000}.txt' }, { toolCallId: 'c', messages: [], context: {} }) as Promise<string>,
      /braces expand to 100,000 patterns/,
    );
    assert.ok(performance.now() - started < 1_000);
  });

  test('a pattern of many wildcards against a long name takes no time (no backtracking)', () => {
    const started = performance.now();
    assert.equal(matchesGlob('a'.repeat(255), `${'*a'.repeat(30)}*b`), false);
    assert.ok(performance.now() - started < 100, `${performance.now() - started} ms`);
    assert.equal(matchesGlob('file-7.txt', 'file-{1..9}.txt'), true);
    assert.equal(matchesGlob('.github/ci.yml', '**/*.yml'), true);
  });
});
