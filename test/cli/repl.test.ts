import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { assertEveryRequestValid, conversationOf, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { text, toolCalls, type Responder } from '../helpers/dashscope-server.ts';
import { cliAgainstServer, startedRun, type ServerRun } from '../helpers/cli-against-server.ts';
import type { CliOptions } from '../helpers/run-cli-limited.ts';

const KEY = 'sk-sylvan-repl-test-91ab40';
const PROMPT = '› ';
const QUESTION_TAIL = '? [y]es / [n]o / [a]lways this session › ';

/** Runs the REPL against a loopback DashScope answering with `respond`, accepting only KEY. */
const replAgainstServer = (respond: Responder, options: CliOptions): Promise<ServerRun> =>
  cliAgainstServer({ respond }, { ...options, key: KEY });

const lines = (output: string): string[] => output.split('\n');

/** The lines a turn printed: from the echo of `input` at the prompt up to the next prompt. */
function turnLines(output: string, input: string): string[] {
  const all = lines(output);
  const start = all.indexOf(`${PROMPT}${input}`);
  assert.ok(start >= 0, `no prompt with ${JSON.stringify(input)} in:\n${output}`);
  const end = all.findIndex((line, index) => index > start && line.startsWith(PROMPT));
  return all.slice(start + 1, end === -1 ? undefined : end);
}

const isActivity = (line: string): boolean => /^\s*(⏺|⎿|·)/.test(line);

// The "done when", verbatim; one more question after `exit` shows that exit really leaves.
const doneWhen = startedRun({ stdin: '北京今天天气怎么样？\n(2+3)*4 等于多少？\nexit\n1+1 等于多少？\n' });
const emptyLinesThenEof = startedRun({ stdin: '\n   \n(2+3)*4 等于多少？\n' });

const TURN_ONE = 'What is (2+3)*4?';
const TURN_TWO = 'And what did you compute just now?';
const conversation = replAgainstServer(
  (_request, index) =>
    [
      toolCalls([{ id: 'call_turn_one', name: 'calculate', arguments: { expression: '(2+3)*4' } }]),
      text('(2+3)*4 = 20.'),
      text('I computed (2+3)*4, which is 20.'),
    ][index] ?? text('no more scripted replies'),
  { stdin: `${TURN_ONE}\n${TURN_TWO}\n` },
);

/** Each user line "write NAME" makes the model call write_file NAME; after the tool result it says "done." */
const writeOnRequest: Responder = (request) => {
  const last = request.body?.messages?.at(-1);
  if (last?.role !== 'user') return text('done.');
  const name = String(last.content).replace(/^write /, '');
  return toolCalls([{ id: `call_${name.replace('.', '_')}`, name: 'write_file', arguments: { path: name, content: `hello ${name}\n` } }]);
};
const approvals = replAgainstServer(writeOnRequest, {
  stdin: ['write a.txt', 'y', 'write b.txt', 'n', 'write c.txt', 'a', 'write d.txt', '/approvals', 'write e.txt', 'n', ''].join('\n'),
});

describe('REPL with the offline mock model (no key)', () => {
  test('the weather and arithmetic questions show their tool calls and answers built on the results', async () => {
    const result = await doneWhen;
    assert.equal(result.code, 0, result.stderr);

    const weather = turnLines(result.stdout, '北京今天天气怎么样？');
    assert.ok(weather.some((line) => line.startsWith('⏺ get_weather(city: "北京")')), weather.join('\n'));
    const temperature = /(-?\d+)°C/.exec(weather.find((line) => line.includes('⎿')) ?? '')?.[1];
    assert.ok(temperature !== undefined, `no temperature in the tool result:\n${weather.join('\n')}`);
    const weatherAnswer = weather.filter((line) => !isActivity(line)).join('\n');
    assert.ok(weatherAnswer.includes(`${temperature}°C`), `the answer does not use the sample temperature ${temperature}°C:\n${weatherAnswer}`);

    const arithmetic = turnLines(result.stdout, '(2+3)*4 等于多少？');
    assert.ok(arithmetic.some((line) => line.startsWith('⏺ calculate(expression: "(2+3)*4")')), arithmetic.join('\n'));
    assert.match(arithmetic.find((line) => line.includes('⎿')) ?? '', /= 20\b/);
    assert.match(arithmetic.filter((line) => !isActivity(line)).join('\n'), /\b20\b/);
  });

  test('exit leaves at once: the question after it is never asked', async () => {
    const result = await doneWhen;
    assert.equal(result.code, 0);
    assert.ok(result.stdout.trimEnd().endsWith(`${PROMPT}exit`), result.stdout);
    assert.ok(!result.stdout.includes('1+1'), result.stdout);
  });

  test('empty lines just prompt again, and the end of input exits 0 without exit', async () => {
    const result = await emptyLinesThenEof;
    assert.equal(result.code, 0, result.stderr);
    const all = lines(result.stdout);
    const first = all.indexOf(PROMPT);
    assert.ok(first > 0, result.stdout);
    assert.deepEqual(all.slice(first, first + 3), [PROMPT, `${PROMPT}   `, `${PROMPT}(2+3)*4 等于多少？`]);
    assert.equal(all.filter((line) => line.startsWith('· ')).length, 1, 'only the question made a turn');
    assert.match(turnLines(result.stdout, '(2+3)*4 等于多少？').join('\n'), /\b20\b/);
    assert.equal(result.stderr, '');
  });
});

describe('REPL against DashScope', () => {
  test('the second turn sends the first turn whole: question, tool call, tool result and answer', async () => {
    const { server, result } = await conversation;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    assert.equal(server.requests.length, 3);
    const third = requestAt(server, 2);
    const messages = conversationOf(third);
    assert.deepEqual(
      messages.map((message) => message.role),
      ['user', 'assistant', 'tool', 'assistant', 'user'],
    );
    assert.deepEqual(messages[0], { role: 'user', content: TURN_ONE });
    assert.equal(messages[1]?.tool_calls?.[0]?.id, 'call_turn_one');
    assert.equal(messages[1]?.tool_calls?.[0]?.function.name, 'calculate');
    assert.match(toolResultText(third, 'call_turn_one'), /= 20\b/);
    assert.equal(messages[3]?.content, '(2+3)*4 = 20.');
    assert.deepEqual(messages[4], { role: 'user', content: TURN_TWO });
    assert.match(result.stdout, /I computed \(2\+3\)\*4, which is 20\./);
    assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY), 'the key was shown');
  });

  describe('approving file writes through piped answers', () => {
    const questionFor = (name: string) => `write_file ${name} (1 line) — new file${QUESTION_TAIL}`;

    test('y writes the file', async () => {
      const { cwd, result } = await approvals;
      assert.equal(result.code, 0, result.stderr);
      assert.ok(result.stdout.includes(`${questionFor('a.txt')}y`), result.stdout);
      assert.equal(readFileSync(join(cwd, 'a.txt'), 'utf8'), 'hello a.txt\n');
    });

    test('n leaves the disk untouched and the model reads a denial for that call', async () => {
      const { server, cwd, result } = await approvals;
      assert.ok(result.stdout.includes(`${questionFor('b.txt')}n`), result.stdout);
      assert.equal(existsSync(join(cwd, 'b.txt')), false);
      const afterDenial = server.requests.find((request) => request.body?.messages?.at(-1)?.tool_call_id === 'call_b_txt');
      assert.ok(afterDenial, 'no request answered the denied call');
      assert.match(toolResultText(afterDenial, 'call_b_txt'), /\bno\b|denied/i);
      assert.doesNotMatch(toolResultText(afterDenial, 'call_b_txt'), /^Wrote/);
      assertEveryRequestValid(server);
    });

    test('a writes and a later write_file is not asked again; /approvals resets it', async () => {
      const { cwd, result } = await approvals;
      assert.ok(result.stdout.includes(`${questionFor('c.txt')}a`), result.stdout);
      assert.equal(readFileSync(join(cwd, 'c.txt'), 'utf8'), 'hello c.txt\n');
      assert.equal(readFileSync(join(cwd, 'd.txt'), 'utf8'), 'hello d.txt\n');
      assert.ok(!result.stdout.includes(`write_file d.txt (1 line) — new file${QUESTION_TAIL}`), 'd.txt was asked about');
      assert.equal(result.stdout.split(QUESTION_TAIL).length - 1, 4, 'asked exactly for a, b, c and e');

      assert.match(turnLines(result.stdout, '/approvals').join('\n'), /write_file.*asked again/);
      assert.ok(result.stdout.includes(`${questionFor('e.txt')}n`), 'after /approvals, e.txt is asked about');
      assert.equal(existsSync(join(cwd, 'e.txt')), false);
    });
  });
});
