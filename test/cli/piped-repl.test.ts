import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { assertEveryRequestValid, conversationOf, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { text, toolCalls, type Responder } from '../helpers/dashscope-server.ts';
import { runCli, type CliOptions, type ServerRun } from '../helpers/cli.ts';

const KEY = 'sk-sylvan-repl-test-91ab40';
const PROMPT = '› ';
const QUESTION_TAIL = '? [y]es / [n]o / [a]lways this session › ';

/** Runs the REPL against a loopback DashScope answering with `respond`, accepting only KEY. */
const replAgainstServer = (respond: Responder, options: CliOptions): Promise<ServerRun> =>
  runCli({ inProcess: true, server: { respond }, ...options, key: KEY });

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
const doneWhen = runCli({ inProcess: true, stdin: '北京今天天气怎么样？\n(2+3)*4 等于多少？\nexit\n1+1 等于多少？\n' });
const emptyLinesThenEof = runCli({ inProcess: true, stdin: '\n   \n(2+3)*4 等于多少？\n' });

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
// Piped input is questions only (issue 9, item 11): "y" is the next question, never an answer.
const approvals = replAgainstServer(writeOnRequest, { stdin: ['write a.txt', 'y', ''].join('\n') });
const approvalsWithYes = replAgainstServer(writeOnRequest, { args: ['--yes'], stdin: 'write c.txt\n' });

describe('REPL with the offline mock model (no key)', () => {
  test('the weather and arithmetic questions show their tool calls and answers built on the results', CLI_TEST_TIMEOUT, async () => {
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

  test('exit leaves at once: the question after it is never asked', CLI_TEST_TIMEOUT, async () => {
    const result = await doneWhen;
    assert.equal(result.code, 0);
    assert.ok(result.stdout.trimEnd().endsWith(`${PROMPT}exit`), result.stdout);
    assert.ok(!result.stdout.includes('1+1'), result.stdout);
  });

  test('empty lines just prompt again, and the end of input exits 0 without exit', CLI_TEST_TIMEOUT, async () => {
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
  test('the second turn sends the first turn whole: question, tool call, tool result and answer', CLI_TEST_TIMEOUT, async () => {
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

  describe('a piped REPL never reads an approval answer from its input (issue 9, item 11)', () => {
    test('write_file is denied without asking, the model is told why, and the next line stays a question', async () => {
      const { server, cwd, result } = await approvals;
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.includes(QUESTION_TAIL), false, 'an approval question was asked');
      assert.equal(existsSync(join(cwd, 'a.txt')), false);
      const denial = toolResultText(requestAt(server, 1), 'call_a_txt');
      assert.match(denial, /pipe/);
      assert.match(denial, /--yes/);
      assert.match(result.stdout, /denied: .*pipe/);
      assert.ok(
        server.requests.some((request) => request.body?.messages?.some((message) => message.role === 'user' && message.content === 'y')),
        'the line "y" did not reach the model as the next question',
      );
      assertEveryRequestValid(server);
    });

    test('with --yes the write happens', async () => {
      const { cwd, result } = await approvalsWithYes;
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(join(cwd, 'c.txt'), 'utf8'), 'hello c.txt\n');
    });
  });
});
