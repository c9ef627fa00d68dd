import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { SUMMARIZE_REQUEST } from '../../src/agent/context/compact.ts';
import { estimateJsonTokens, estimateMessageTokens, estimateTextTokens } from '../../src/shared/text/token-estimate.ts';
import { hang, httpError, startDashScopeServer, text, toolCalls, type ChatMessage, type DashScopeServer, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { killWhenDone } from '../helpers/children.ts';
import { CLI_TEST_TIMEOUT, signal, withDeadline } from '../helpers/deadline.ts';
import { startTerminal } from '../helpers/terminal.ts';
import { isCompactionRequest, startSummarizingServer, type SummarizingServerOptions } from '../helpers/summarizing-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';

// Memory (issue 5), end to end: the CLI against a loopback DashScope server (or the mock model),
// asserting what every request carried — valid, current, within the window — and what the user
// saw, across long conversations, compaction, crashes and damaged session files. Piped runs are
// in-process (`runCli({ inProcess: true })`, test/helpers/cli.ts) but the 300 turns; a crash, a terminal and the long run start
// the built CLI.

/** How long one thing a test waits for (a turn's answer, a request) may take under load: a safety net. */
const EVENT_DEADLINE_MS = 60_000;

const serve = async (options: SummarizingServerOptions): Promise<DashScopeServer> => closeAtEnd(await startSummarizingServer(options));
const dashscope = dashscopeEnv;

function contentText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

const messagesOf = (request: RecordedRequest): ChatMessage[] => request.body?.messages ?? [];
const lastUser = (request: RecordedRequest): string => contentText(messagesOf(request).findLast((message) => message.role === 'user'));

/**
 * The wire messages (OpenAI format) turned back into the ModelMessages they were made from, so
 * `estimateMessageTokens` counts them exactly as the fitter counted the history.
 */
function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): ModelMessage => {
    if (message.role === 'user') return { role: 'user', content: contentText(message) };
    if (message.role === 'assistant') {
      const parts: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
      const said = contentText(message);
      if (said !== '') parts.push({ type: 'text', text: said });
      for (const call of message.tool_calls ?? []) {
        toolNames.set(call.id, call.function.name);
        parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.function.name, input: JSON.parse(call.function.arguments) });
      }
      return { role: 'assistant', content: parts };
    }
    assert.equal(message.role, 'tool', `unexpected ${message.role} message in the history`);
    const id = message.tool_call_id ?? '';
    return {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: toolNames.get(id) ?? '', output: { type: 'text', value: contentText(message) } }],
    };
  });
}

// ---- 1. 300 turns through a 6k window --------------------------------------------------------

const CHINESE = '春眠不觉晓处处闻啼鸟夜来风雨声花落知多少床前明月光疑是地上霜举头望明月低头思故乡白日依山尽黄河入海流欲穷千里目更上一层楼千山鸟飞绝万径人踪灭孤舟蓑笠翁独钓寒江雪';
const ENGLISH = 'the quick brown fox jumps over the lazy dog while a river of context flows past the window and old turns fall away ';

function chineseText(seed: number, length: number): string {
  let result = '';
  for (let index = 0; index < length; index++) result += CHINESE[(seed * 7 + index * 3) % CHINESE.length];
  return result;
}

function englishText(seed: number, length: number): string {
  let result = '';
  while (result.length < length) result += ENGLISH.slice((seed * 5 + result.length) % ENGLISH.length);
  // The REPL trims what it reads.
  return result.slice(0, length).trim();
}

/**
 * Turn n's line: odd turns Chinese (~100 characters), even turns English (~300 characters); turns
 * 25, 75, 125… paste a long passage (900 characters), which only fits once older turns are left out.
 */
function turnLine(turn: number): string {
  if (turn % 50 === 25) return `请帮我总结一下第${turn}段：${chineseText(turn, 900)}`;
  return turn % 2 === 1
    ? `请帮我总结一下第${turn}段：${chineseText(turn, 80 + ((turn * 13) % 41))}`
    : `Turn ${turn}: ${englishText(turn, 240 + ((turn * 37) % 121))}`;
}

const turnOf = (line: string): number => Number(/^请帮我总结一下第(\d+)段：|^Turn (\d+):/.exec(line)?.slice(1).find(Boolean) ?? Number.NaN);
const isToolTurn = (turn: number): boolean => turn % 3 === 0;

/** Every 3rd turn: a tool call (calculate, or read_file of notes.txt), then text; other turns: text. */
function respondToTurn(request: RecordedRequest): Reply {
  const messages = messagesOf(request);
  const turn = turnOf(lastUser(request));
  if (isToolTurn(turn) && messages.at(-1)?.role === 'user') {
    return turn % 6 === 0
      ? toolCalls([{ name: 'read_file', arguments: { path: 'notes.txt' } }])
      : toolCalls([{ name: 'calculate', arguments: { expression: `${turn}*7+3` } }]);
  }
  return turn % 2 === 1
    ? text(`第${turn}段讲的是${chineseText(turn + 1, 60 + (turn % 50))}。`)
    : text(`Answer ${turn}: ${englishText(turn + 3, 200 + ((turn * 11) % 150))}.`);
}

// Small, yet room for the nine tools' definitions (reserved twice) plus a turn: 4k left less than one turn.
const WINDOW_TOKENS = 6000;

/**
 * The history budget, by the fitter's own accounting (src/agent/context/context-fitter.ts): the window minus
 * the reserved tokens, which are the instructions, twice the tool definitions ({ name, description }
 * as JSON) and room for the answer (15% of the window, at most 8,192). Recomputed here from what went
 * over the wire (the system message and the tools' names and descriptions), not taken from the fitter.
 * The fitter counts each message as estimateMessageTokens × a learned ratio clamped to [1, 2], so
 * the raw estimate of what was sent (`historyTokens`) must be within this budget too.
 */
function historyBudget(request: RecordedRequest): number {
  const instructions = contentText(messagesOf(request)[0]);
  const definitions = (request.body?.tools ?? []).map((tool) => ({ name: tool.function.name, description: tool.function.description }));
  const answerRoom = Math.min(8_192, Math.floor(WINDOW_TOKENS * 0.15));
  return WINDOW_TOKENS - (estimateTextTokens(instructions) + 2 * estimateJsonTokens(definitions) + answerRoom);
}

/** The raw estimate of a request's history (everything after the system prompt). */
function historyTokens(messages: ChatMessage[]): number {
  return toModelMessages(messages).reduce((total, message) => total + estimateMessageTokens(message), 0);
}

describe('memory: a long conversation in a small window', () => {
  // About 10 s on an idle machine, a minute on one loaded eight times over: the limits are far above.
  test('300 piped turns with SYLVAN_CONTEXT_TOKENS=6000: every request valid, current, and within the window', { timeout: 300_000 }, async () => {
    const server = await serve({
      respond: respondToTurn,
      summarize: (request) => {
        const turns = messagesOf(request).map((message) => turnOf(contentText(message))).filter((turn) => turn > 0);
        return `The user asked for summaries of numbered passages ${turns[0]} to ${turns.at(-1)}; each was answered.`;
      },
    });
    const cwd = tempWorkspace('sylvan-memory-');
    writeFileSync(join(cwd, 'notes.txt'), 'Shopping list\n- rice\n- tea\n');
    const lines = Array.from({ length: 300 }, (_, index) => turnLine(index + 1));
    // The built CLI, not in-process: this run is CPU-bound, and a process of its own runs beside the
    // server instead of sharing this one's core (and its test runner's tracking of every promise).
    const result = await runCli({
      cwd,
      stdin: `${lines.join('\n')}\n`,
      env: dashscope(server, { SYLVAN_CONTEXT_TOKENS: String(WINDOW_TOKENS), SYLVAN_MODEL: 'qwen-plus', NO_COLOR: '', FORCE_COLOR: '1' }),
      killAfterMs: 240_000,
    });

    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Answer 300: /, 'the last turn was answered');
    for (const [index, request] of server.requests.entries()) {
      assert.equal(request.invalid, undefined, `request #${index + 1} was rejected: ${request.invalid}`);
      assert.equal(messagesOf(request)[0]?.role, 'system', `request #${index + 1} does not start with the system prompt`);
    }

    // Automatic compaction (non-streamed summaries) interleaves with the turns; the turns' own
    // requests are exactly one per step: 300 turns, plus a second step for each of the 100 tool turns.
    const compactions = server.requests.filter(isCompactionRequest);
    const turnRequests = server.requests.filter((request) => !isCompactionRequest(request));
    assert.equal(turnRequests.length, 300 + 100);
    for (const request of compactions) assert.equal(contentText(messagesOf(request).at(-1)), SUMMARIZE_REQUEST);
    let next = 0;
    for (let turn = 1; turn <= 300; turn++) {
      const first = messagesOf(turnRequests[next++] as RecordedRequest);
      assert.equal(first.at(-1)?.role, 'user', `turn ${turn}: the request ends with the user's message`);
      assert.equal(contentText(first.at(-1)), lines[turn - 1], `turn ${turn}: the last user message is this turn's`);
      if (!isToolTurn(turn)) continue;
      const second = messagesOf(turnRequests[next++] as RecordedRequest);
      assert.equal(second.at(-1)?.role, 'tool', `turn ${turn}: the second step carries the tool result`);
      assert.equal(second.at(-2)?.tool_calls?.[0]?.id, second.at(-1)?.tool_call_id, `turn ${turn}: the result answers the call`);
      assert.equal(contentText(second.at(-3)), lines[turn - 1], `turn ${turn}: still this turn's user message`);
    }

    const budget = historyBudget(turnRequests[0] as RecordedRequest);
    assert.ok(budget > 0 && budget < WINDOW_TOKENS / 2, `the tools and instructions leave ${budget} tokens of a 6k window`);
    let largest = 0;
    for (const [index, request] of server.requests.entries()) {
      assert.equal(historyBudget(request), budget, `request #${index + 1}: same instructions and tools`);
      // A compaction request is the fitted history plus the request for a summary, added after fitting.
      const history = messagesOf(request).slice(1, isCompactionRequest(request) ? -1 : undefined);
      const tokens = historyTokens(history);
      assert.ok(tokens <= budget, `request #${index + 1}: history of ${tokens} estimated tokens exceeds the ${budget}-token budget`);
      largest = Math.max(largest, tokens);
    }
    // Unfitted, turn 300 would carry ~60k tokens; the bound is approached, not vacuous.
    assert.ok(largest > budget * 0.6, `the largest history (${largest}) comes near the budget (${budget})`);

    const late = messagesOf(turnRequests.at(-1) as RecordedRequest);
    assert.ok(!late.some((message) => contentText(message).includes(lines[0] as string)), "turn 1's text is gone from the last request");
    assert.ok(late.filter((message) => message.role === 'user').length < 10, 'the last request carries only a few turns');
    assert.ok(compactions.length > 0, 'older turns were summarised');
    assert.match(
      result.stdout,
      /\x1b\[2m\(\d+ older turns? left out to fit the 6k context window; \/compact summarises them\)\x1b\[22m/,
      'the user saw the dimmed notice that older turns were left out',
    );
  });

  test(
    'a message larger than the whole window is reported, not sent silently',
    CLI_TEST_TIMEOUT,
    async () => {
      const server = await serve({ respond: () => text('Summarised.'), summarize: () => 'unused' });
      const pasted = `请帮我总结这一段：${chineseText(1, WINDOW_TOKENS)}`;
      const result = await runCli({ inProcess: true, stdin: `${pasted}\n`, env: dashscope(server, { SYLVAN_CONTEXT_TOKENS: String(WINDOW_TOKENS), SYLVAN_MODEL: 'qwen-plus' }) });
      assert.equal(result.code, 0, result.stderr);
      const sent = messagesOf(server.requests[0] as RecordedRequest);
      assert.ok(historyTokens(sent.slice(1)) > historyBudget(server.requests[0] as RecordedRequest), 'the message alone is over the budget');
      assert.match(result.stdout, /context window/, 'the user is told the message does not fit');
    },
  );

  test(
    'a summary is not summarised again before every following turn',
    CLI_TEST_TIMEOUT,
    async () => {
      const summary = chineseText(3, 600);
      const server = await serve({ respond: (request) => text(`好的：${lastUser(request).slice(0, 10)}`), summarize: () => summary });
      const lines = [`请帮我总结这一段：${chineseText(2, 500)}`, '谢谢', '再见', '你好', '好的', '明白'];
      const result = await runCli({ inProcess: true, stdin: `${lines.join('\n')}\n`, env: dashscope(server, { SYLVAN_CONTEXT_TOKENS: String(WINDOW_TOKENS), SYLVAN_MODEL: 'qwen-plus' }) });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.filter((request) => !isCompactionRequest(request)).length, lines.length);
      const compactions = server.requests.filter(isCompactionRequest).length;
      assert.ok(compactions <= 1, `${compactions} compactions for ${lines.length} turns, ${lines.length - 1} of them two-word turns`);
    },
  );
});

// ---- 2. killed mid-turn, then --continue --------------------------------------------------------

/** Resolves once what `stream` has printed so far satisfies `ready`; rejects if the stream ends first. */
function waitForOutput(stream: NodeJS.ReadableStream, ready: (seen: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: string | Buffer) => {
      seen += chunk.toString();
      if (!ready(seen)) return;
      stream.off('data', onData);
      stream.off('end', onEnd);
      resolve(seen);
    };
    const onEnd = () => reject(new Error(`the output ended first:\n${seen}`));
    stream.on('data', onData);
    stream.on('end', onEnd);
  });
}

const finishedTurns = (seen: string): number => seen.match(/^· [\d,.k]+ in · [\d,.k]+ out/gm)?.length ?? 0;

describe('memory: sessions survive a crash', () => {
  test('SIGKILL during the 4th turn; --continue sends every finished turn, tool pair included, and the 4th question', CLI_TEST_TIMEOUT, async (context) => {
    const fourthRequest = signal();
    const server = await serve({
      respond: (request) => {
        const question = lastUser(request);
        const last = messagesOf(request).at(-1);
        if (question === 'first question') return text('Answer one.');
        if (question === 'what is 6*7?') {
          return last?.role === 'user'
            ? toolCalls([{ id: 'call_memory_calc', name: 'calculate', arguments: { expression: '6*7' } }])
            : text('It is 42.');
        }
        if (question === 'third question') return text('Answer three.');
        if (question === 'fourth question') {
          fourthRequest.fire();
          return hang({ text: 'Partial ans' });
        }
        return text('Answer five.');
      },
      summarize: () => 'unused',
    });
    const cwd = tempWorkspace('sylvan-memory-');
    const env = dashscope(server, { SYLVAN_MODEL: 'qwen-plus' });
    const running = startCli({ cwd, env });
    killWhenDone(context, running.child);
    const questions = ['first question', 'what is 6*7?', 'third question'];
    for (const question of questions) {
      // Watching from before the line is written: this turn's usage line is the first one it can see.
      const answered = waitForOutput(running.child.stdout, (seen) => finishedTurns(seen) === 1);
      running.child.stdin.write(`${question}\n`);
      await withDeadline(answered, EVENT_DEADLINE_MS, `the answer to "${question}"`);
    }
    const partial = waitForOutput(running.child.stdout, (seen) => seen.includes('Partial ans'));
    running.child.stdin.write('fourth question\n');
    await withDeadline(Promise.all([fourthRequest.fired, partial]), EVENT_DEADLINE_MS, 'the fourth question to reach the server and its answer to start');
    running.child.kill('SIGKILL');
    const killed = await withDeadline(running.exited, EVENT_DEADLINE_MS, 'the killed CLI to close');
    assert.equal(killed.signal, 'SIGKILL', 'killed, not exited on its own');
    assert.match(killed.stdout, /It is 42\./);

    const result = await runCli({ inProcess: true, cwd, env, args: ['--continue'], stdin: 'fifth question\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Resumed session \S+ \(4 earlier turns\)/);
    assert.match(result.stdout, /Answer five\./);
    const resumed = server.requests.at(-1) as RecordedRequest;
    assert.equal(resumed.invalid, undefined, `the resumed request was rejected: ${resumed.invalid}`);
    const sent = messagesOf(resumed).map((message) => ({
      role: message.role,
      text: contentText(message),
      ...(message.tool_calls && { calls: message.tool_calls.map((call) => `${call.id} ${call.function.name} ${call.function.arguments}`) }),
      ...(message.tool_call_id !== undefined && { answers: message.tool_call_id }),
    }));
    assert.equal(sent[0]?.role, 'system');
    assert.deepEqual(sent.slice(1), [
      { role: 'user', text: 'first question' },
      { role: 'assistant', text: 'Answer one.' },
      { role: 'user', text: 'what is 6*7?' },
      { role: 'assistant', text: '', calls: ['call_memory_calc calculate {"expression":"6*7"}'] },
      { role: 'tool', text: '6*7 = 42', answers: 'call_memory_calc' },
      { role: 'assistant', text: 'It is 42.' },
      { role: 'user', text: 'third question' },
      { role: 'assistant', text: 'Answer three.' },
      // Appended before its request was sent; the streamed-in part of its answer never became a step.
      { role: 'user', text: 'fourth question' },
      { role: 'user', text: 'fifth question' },
    ]);
  });
});

describe('memory: killed at an approval prompt', () => {
  test('the unanswered write_file call is marked interrupted on --continue, with one dim line', CLI_TEST_TIMEOUT, async (context) => {
    const server = await serve({
      respond: (request) =>
        lastUser(request) === 'write hello.txt'
          ? toolCalls([{ id: 'call_memory_write', name: 'write_file', arguments: { path: 'hello.txt', content: 'hello from the memory test\n' } }])
          : text('The write was interrupted, so hello.txt was not written.'),
      summarize: () => 'unused',
    });
    const cwd = tempWorkspace('sylvan-memory-');
    const env = dashscope(server, { SYLVAN_MODEL: 'qwen-plus' });
    // A terminal: a piped REPL never asks (issue 9), it denies.
    const terminal = await startTerminal({ cwd, env: { ...env, SYLVAN_MOCK_DELAY_MS: '0' } });
    context.after(() => terminal.close());
    await terminal.expect(/› /, 'the first prompt');
    // The preview (the content on a "│" line of its own, unlike the ⏺ call line) is printed after the step
    // entered the history, right before the question is read from the terminal.
    const asking = terminal.expect(/│ hello from the memory test[\s\S]*Esc says no\)/, 'the approval question for hello.txt');
    terminal.type('write hello.txt\r');
    await asking;
    process.kill(terminal.pid, 'SIGKILL');
    await terminal.exited();

    const result = await runCli({ inProcess: true, cwd, env, args: ['--continue'], stdin: 'did it work?\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^\(1 tool call did not finish when that session ended; marked as interrupted\)$/m);
    assert.doesNotMatch(result.stdout, /warning/);
    assert.ok(!existsSync(join(cwd, 'hello.txt')), 'nothing was written');
    const resumed = server.requests.at(-1) as RecordedRequest;
    assert.equal(resumed.invalid, undefined, `the resumed request was rejected: ${resumed.invalid}`);
    const sent = messagesOf(resumed);
    const call = sent.findIndex((message) => message.tool_calls?.[0]?.id === 'call_memory_write');
    assert.ok(call > 0, 'the call is still in the history');
    assert.equal(sent[call + 1]?.tool_call_id, 'call_memory_write');
    assert.match(contentText(sent[call + 1]), /Interrupted: this tool call did not finish/);
    assert.deepEqual(sent.slice(call + 2).map((message) => [message.role, contentText(message)]), [['user', 'did it work?']]);
  });
});

// ---- 3. /compact ------------------------------------------------------------------------------------

describe('memory: /compact', () => {
  test('with the mock model, the summary still answers "what did I ask before?", also after --continue', CLI_TEST_TIMEOUT, async () => {
    const cwd = tempWorkspace('sylvan-memory-');
    const first = await runCli({ inProcess: true, cwd, stdin: ['北京今天天气怎么样？', '(2+3)*4 等于多少？', '/compact', '我之前问了什么？'].join('\n') });
    assert.equal(first.code, 0, first.stderr);
    const compacted = /compacted: history ≈ ([\d,]+) → ([\d,]+) tokens/.exec(first.stdout);
    assert.ok(compacted, `/compact reports the history size; stdout:\n${first.stdout}`);
    assert.ok(Number(compacted[2]?.replace(/,/g, '')) < Number(compacted[1]?.replace(/,/g, '')), 'the history shrank');
    const recall = first.stdout.slice(first.stdout.lastIndexOf('› 我之前问了什么？'));
    assert.match(recall, /摘要/, 'the answer comes from the summary');
    assert.match(recall, /北京/);
    assert.match(recall, /\(2\+3\)\*4/);

    const resumed = await runCli({ inProcess: true, cwd, args: ['--continue'], stdin: '我之前问了什么？' });
    assert.equal(resumed.code, 0, resumed.stderr);
    const again = resumed.stdout.slice(resumed.stdout.lastIndexOf('› 我之前问了什么？'));
    assert.match(again, /北京/, 'the compacted session is what --continue loads');
    assert.match(again, /\(2\+3\)\*4/);
  });

  test('against DashScope: the request after /compact is the summary pair and the new question', CLI_TEST_TIMEOUT, async () => {
    const summary = 'The user asked about the weather in Beijing (sunny, 25°C) and (2+3)*4, which is 20.';
    const server = await serve({
      respond: (request) => {
        const question = lastUser(request);
        if (question.startsWith('What is (2+3)*4')) {
          return messagesOf(request).at(-1)?.role === 'user'
            ? toolCalls([{ name: 'calculate', arguments: { expression: '(2+3)*4' } }])
            : text('(2+3)*4 is 20.');
        }
        if (question.startsWith('Weather in Beijing')) return text('Beijing is sunny today, 25°C, with a light north wind.');
        return text(`You asked: ${question}`);
      },
      summarize: () => summary,
    });
    const result = await runCli({ inProcess: true,
      args: [],
      stdin: ['Weather in Beijing today?', 'What is (2+3)*4?', 'Thanks, and what about tomorrow?', '/compact', 'What did I ask before?'].join('\n'),
      env: dashscope(server, { SYLVAN_MODEL: 'qwen-plus' }),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /compacted: history ≈ [\d,]+ → [\d,]+ tokens/);
    for (const [index, request] of server.requests.entries()) {
      assert.equal(request.invalid, undefined, `request #${index + 1} was rejected: ${request.invalid}`);
    }

    const compactionIndex = server.requests.findIndex(isCompactionRequest);
    const compaction = server.requests[compactionIndex] as RecordedRequest;
    const before = server.requests[compactionIndex - 1] as RecordedRequest;
    const after = server.requests[compactionIndex + 1] as RecordedRequest;
    assert.equal(server.requests.length, compactionIndex + 2, 'one request after the compaction');
    assert.equal(contentText(messagesOf(compaction).at(-1)), SUMMARIZE_REQUEST);
    assert.equal(compaction.body?.tool_choice, 'none', 'the summary request may not call tools');
    assert.ok(messagesOf(compaction).some((message) => message.role === 'tool'), 'the whole history, tool result included, is summarised');

    const sent = messagesOf(after);
    assert.equal(sent[0]?.role, 'system');
    assert.equal(sent[1]?.role, 'user');
    assert.equal(contentText(sent[1]), `Summary of the earlier conversation:\n${summary}`);
    assert.equal(sent[2]?.role, 'assistant');
    assert.deepEqual(sent.slice(3).map((message) => [message.role, contentText(message)]), [['user', 'What did I ask before?']]);
    assert.ok(sent.length < messagesOf(before).length, `${sent.length} messages after, ${messagesOf(before).length} before`);
    assert.ok(
      JSON.stringify(sent.slice(1)).length < JSON.stringify(messagesOf(before).slice(1)).length,
      'fewer characters of history after the compaction',
    );
  });
});

describe('memory: automatic summaries that fail', () => {
  test('are tried again after 2, 4, 8 … turns, not before every turn; each failure is one line and every turn is still answered', CLI_TEST_TIMEOUT, async () => {
    const server = closeAtEnd(
      await startDashScopeServer({
        respond: (request) => (isCompactionRequest(request) ? httpError(500, { body: { code: 'InternalError', message: 'summaries are down' } }) : text(`Answer to: ${lastUser(request).slice(0, 20)}`)),
      }),
    );
    const lines = Array.from({ length: 12 }, (_, index) => `Turn ${index + 1}: ${englishText(index, 2_400)}`);
    const result = await runCli({
      inProcess: true,
      env: dashscope(server, { SYLVAN_CONTEXT_TOKENS: String(WINDOW_TOKENS), SYLVAN_MAX_RETRIES: '0' }),
      stdin: `${lines.join('\n')}\n`,
    });
    assert.equal(result.code, 0, result.stderr);
    // The turn each summary was tried before (one request a turn: the answers call no tool).
    const turns = server.requests.filter((request) => !isCompactionRequest(request));
    const triedBefore: number[] = [];
    let asked = 0;
    for (const request of server.requests) {
      if (isCompactionRequest(request)) triedBefore.push(asked + 1);
      else asked++;
    }
    assert.equal(turns.length, 12, 'every turn was asked');
    assert.deepEqual(triedBefore, [3, 5, 9], 'tried when due (turn 3), then 2 and 4 turns after each failure; the next would be before turn 17');
    assert.equal(result.stdout.match(/\(Compaction failed: /g)?.length, 3, result.stdout);
    for (const turn of turns) assert.ok(historyTokens(messagesOf(turn).slice(1)) <= historyBudget(turn), 'each turn is still cut to the window');
  });
});

// ---- 4. session files -------------------------------------------------------------------------------

describe('memory: session files', () => {
  test('--resume with an unknown id exits 2 with one line', CLI_TEST_TIMEOUT, async () => {
    const result = await runCli({ inProcess: true, args: ['--resume', '2020-01-01T00-00-00-000Z-dead'], stdin: 'hello\n' });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
    assert.equal(lines.length, 1, `one line on stderr:\n${result.stderr}`);
    assert.match(lines[0] ?? '', /no session "2020-01-01T00-00-00-000Z-dead"/);
    assert.doesNotMatch(result.stdout, /›/, 'no prompt: nothing was asked');
  });

  test('a damaged middle line and a half-written last line: --continue loads the rest, warns, and stays valid', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({
      respond: (request) => {
        const question = lastUser(request);
        if (question === 'what is 6*7?' && messagesOf(request).at(-1)?.role === 'user') {
          return toolCalls([{ name: 'calculate', arguments: { expression: '6*7' } }]);
        }
        return text(`Answer to ${question}`);
      },
      summarize: () => 'unused',
    });
    const cwd = tempWorkspace('sylvan-memory-');
    const env = dashscope(server, { SYLVAN_MODEL: 'qwen-plus' });
    const first = await runCli({ inProcess: true, cwd, env, stdin: 'first question\nwhat is 6*7?\nthird question\n' });
    assert.equal(first.code, 0, first.stderr);

    const directory = join(cwd, '.sylvan-home', 'sessions');
    const [name, ...others] = readdirSync(directory);
    assert.ok(name !== undefined && others.length === 0, 'one session was saved');
    const path = join(directory, name);
    const lines = readFileSync(path, 'utf8').split('\n');
    // The assistant's tool call is the damaged line: its tool result is left without a call.
    const callLine = lines.findIndex((line) => line.includes('"tool-call"'));
    assert.ok(callLine > 0, 'the session holds the tool call');
    lines[callLine] = (lines[callLine] as string).slice(0, 40);
    const cutOff = JSON.stringify({ type: 'message', message: { role: 'user', content: 'never finished' } }).slice(0, 45);
    writeFileSync(path, `${lines.join('\n')}${cutOff}`);

    const result = await runCli({ inProcess: true, cwd, env, args: ['--continue'], stdin: 'after the damage\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`warning: session \\S+: line ${callLine + 1} is damaged and was skipped`));
    assert.match(result.stdout, new RegExp(`warning: session \\S+: line ${lines.length} was cut off while being written and was skipped`));
    assert.match(result.stdout, /Resumed session \S+ \(3 earlier turns\)/);
    assert.match(result.stdout, /Answer to after the damage/);

    const resumed = server.requests.at(-1) as RecordedRequest;
    assert.equal(resumed.invalid, undefined, `the resumed request was rejected: ${resumed.invalid}`);
    assert.deepEqual(
      messagesOf(resumed).filter((message) => message.role === 'user').map(contentText),
      ['first question', 'what is 6*7?', 'third question', 'after the damage'],
    );
    assert.ok(!messagesOf(resumed).some((message) => message.role === 'tool'), 'the orphaned tool result is not sent');

    // The new entries start on a line of their own, so the next load reads them.
    const again = await runCli({ inProcess: true, cwd, env, args: ['--continue'], stdin: 'once more\n' });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Resumed session \S+ \(4 earlier turns\)/);
    assert.deepEqual(
      messagesOf(server.requests.at(-1) as RecordedRequest).filter((message) => message.role === 'user').map(contentText),
      ['first question', 'what is 6*7?', 'third question', 'after the damage', 'once more'],
    );
  });
});

// ---- 5. /usage ----------------------------------------------------------------------------------------

describe('memory: /usage', () => {
  // Three streamed steps: 40,000 + 50,000 + 30,000 in (of which 20,000 cached), 5,000 × 3 out.
  const stepUsage = [
    { promptTokens: 40_000, completionTokens: 5_000, cachedTokens: 0 },
    { promptTokens: 50_000, completionTokens: 5_000, cachedTokens: 10_000 },
    { promptTokens: 30_000, completionTokens: 5_000, cachedTokens: 10_000 },
  ];
  const respond = (request: RecordedRequest, index: number): Reply => {
    const usage = stepUsage[index] ?? { promptTokens: 1, completionTokens: 1 };
    if (lastUser(request) === 'what is 6*7?' && messagesOf(request).at(-1)?.role === 'user') {
      return toolCalls([{ name: 'calculate', arguments: { expression: '6*7' } }], { usage });
    }
    return text('Done.', { usage });
  };
  // qwen-plus on DashScope's mainland endpoint (a loopback server counts as one), per million: ¥0.8 in, ¥2 out;
  // cached input (no cache_type: DashScope's implicit cache) at 20% of the input price.
  const expectedInput = ((120_000 - 20_000) * 0.8 + 20_000 * 0.8 * 0.2) / 1_000_000;
  const expectedCost = expectedInput + (15_000 * 2) / 1_000_000;
  const yuan = (value: number) => value.toFixed(4).replace('.', '\\.');

  test('sums the usage the server reported, with a cost estimate in yuan at qwen-plus prices and the cached share; --continue keeps the totals', CLI_TEST_TIMEOUT, async () => {
    const server = await serve({ respond, summarize: () => 'unused' });
    const cwd = tempWorkspace('sylvan-memory-');
    const env = dashscope(server, { SYLVAN_MODEL: 'qwen-plus' });
    const result = await runCli({ inProcess: true, cwd, env, stdin: 'hello\nwhat is 6*7?\n/usage\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 3);
    assert.match(result.stdout, /^ {2}session: 120,000 input · 15,000 output · 20,000 cached$/m);
    assert.match(result.stdout, /^ {2}cache: 17% of input served from cache \(20,000 implicit hits at 20%\)$/m);
    const saved = (120_000 * 0.8) / 1_000_000 - expectedInput;
    assert.match(
      result.stdout,
      new RegExp(`^ {2}≈ ¥${yuan(expectedCost)} at qwen-plus list prices \\(an estimate\\); the cache saved ¥${yuan(saved)} of ¥0\\.0960 input$`, 'm'),
    );
    // The turn line shows the turn's money beside its tokens, with the cached share and the saving.
    assert.match(result.stdout, /^· .* in · .* out · ¥0\.\d{4} \(\d+% cached, saved ¥0\.\d{4}\) · context/m);

    const resumed = await runCli({ inProcess: true, cwd, env, args: ['--continue'], stdin: '/usage\n' });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /^ {2}session: 120,000 input · 15,000 output · 20,000 cached$/m);
  });

  test(
    'counts the tokens a /compact spent',
    CLI_TEST_TIMEOUT,
    async () => {
      const server = await serve({ respond, summarize: () => 'The user said hello.', summaryUsage: { promptTokens: 7_000, completionTokens: 300 } });
      const result = await runCli({ inProcess: true, env: dashscope(server, { SYLVAN_MODEL: 'qwen-plus' }), stdin: 'hello\n/compact\n/usage\n' });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(server.requests.filter(isCompactionRequest).length, 1);
      assert.match(result.stdout, /^ {2}session: 47,000 input · 5,300 output · 0 cached$/m);
    },
  );
});
