import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { text, toolCalls } from '../helpers/dashscope-server.ts';

// Issue 23, section 2: an answer the model stopped at its output limit (finish reason `length`)
// is shown whole, then one line says it was cut off; print mode still exits 0, and --json
// carries the finish reason in the turn's end event.

const KEY = 'sk-cut-off-test';
const TIMEOUT = { timeout: 60_000 };
const NOTICE = 'The answer was cut off at the model\'s output limit. Say "continue" for the rest.';
const lines = (output: string): string[] => output.split('\n').filter((line) => line.trim() !== '');

const cut = text('The first half of a long answer', { finishReason: 'length' });
const plain = runCli({ inProcess: true, server: { replies: [cut] }, args: ['-p', 'explain everything'], key: KEY });
const json = runCli({ inProcess: true, server: { replies: [cut] }, args: ['-p', '--json', 'explain everything'], key: KEY });
const whole = runCli({ inProcess: true, server: { replies: [text('A whole answer.')] }, args: ['-p', '--json', 'explain briefly'], key: KEY });

describe('a cut-off answer says so', TIMEOUT, () => {
  test('print mode: the answer on stdout, the notice on stderr, exit 0', async () => {
    const { result } = await plain;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'The first half of a long answer');
    assert.deepEqual(lines(result.stderr), [NOTICE]);
  });

  test('--json: the turn-end event carries finishReason "length"; stderr says so too', async () => {
    const { result } = await json;
    assert.equal(result.code, 0, result.stderr);
    const events = lines(result.stdout).map((line) => JSON.parse(line) as { type: string; finishReason?: string; stopReason?: string });
    const end = events.at(-1);
    assert.equal(end?.type, 'turn-end');
    assert.equal(end?.stopReason, 'completed');
    assert.equal(end?.finishReason, 'length');
    assert.deepEqual(lines(result.stderr), [NOTICE]);
  });

  test('a whole answer: finishReason "stop", nothing on stderr', async () => {
    const { result } = await whole;
    assert.equal(result.code, 0, result.stderr);
    const end = JSON.parse(lines(result.stdout).at(-1) ?? '{}') as { finishReason?: string };
    assert.equal(end.finishReason, 'stop');
    assert.equal(result.stderr, '');
  });
});

// A call written as the answer hit the output limit may be cut off even when its JSON parses (a
// path or a content cut short is still valid JSON): it is not run, and the model is told why.
const writeCall = { id: 'call_write', name: 'write_file', arguments: { path: 'notes.txt', content: 'the first half' } };
const writeWith = (finishReason: string) =>
  runCli({ inProcess: true, server: { replies: [toolCalls([writeCall], { finishReason }), text('Noted.')] }, args: ['-p', '--yes', 'write my notes'], key: KEY });
const cutWrite = writeWith('length');
const wholeWrite = writeWith('tool_calls');

describe('a call written as the answer hit the output limit', TIMEOUT, () => {
  test('is not run even though its arguments parse; the model reads why', async () => {
    const { server, cwd, result } = await cutWrite;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(cwd, 'notes.txt')), false, 'nothing was written');
    assert.match(toolResultText(requestAt(server, 1), 'call_write'), /^Not run: your answer hit the output limit \(finish reason: length\)/);
  });

  test('the same call in a whole answer runs', async () => {
    const { server, cwd, result } = await wholeWrite;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'the first half');
    assert.doesNotMatch(toolResultText(requestAt(server, 1), 'call_write'), /Not run/);
  });
});
