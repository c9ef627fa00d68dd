import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { AgentEvent } from '../src/agent/loop/events.ts';
import { loadConfig } from '../src/config/load-config.ts';
import type { Config } from '../src/config/config.ts';
import { createRuntime } from '../src/runtime/create-runtime.ts';
import type { Runtime } from '../src/runtime/runtime.ts';
import { printApproval } from './helpers/approval-policies.ts';
import { tempWorkspace } from './helpers/temp-workspace.ts';
import { contentText } from './helpers/chat-requests.ts';
import { text, type DashScopeServer, type RecordedRequest, type ScriptedUsage } from './helpers/dashscope-server.ts';
import { withDeadline } from './helpers/deadline.ts';
import { closeAtEnd } from './helpers/served.ts';
import { isCompactionRequest, startSummarizingServer } from './helpers/summarizing-server.ts';
import { loadModelFactory } from '../src/providers/load-model-factory.ts';

// The runtime in-process against a loopback DashScope: how the history it sends is sized from the
// provider's reported usage, and when it summarises the history by itself.

const WINDOW_TOKENS = 8000;
const TEST_TIMEOUT = { timeout: 60_000 };
const CHINESE = '春眠不觉晓处处闻啼鸟夜来风雨声花落知多少床前明月光疑是地上霜举头望明月低头思故乡';
/** `length` Chinese characters: about one estimated token each. */
const chinese = (length: number): string => Array.from({ length }, (_, index) => CHINESE[index % CHINESE.length]).join('');

interface Started {
  runtime: Runtime;
  server: DashScopeServer;
  /** The room for history, as the runtime accounts it: the window less instructions, tools and the answer. */
  historyRoom: number;
  /** $SYLVAN_HOME: sessions live here. */
  home: string;
}

/** A runtime for qwen-plus with an 8k window against a loopback server whose answers report `usage`. */
async function startRuntime(usage: ScriptedUsage): Promise<Started> {
  const server = closeAtEnd(
    await startSummarizingServer({
      respond: () => text('好的。', { usage }),
      summarize: () => '用户先发了两段很长的古诗。',
      summaryUsage: usage,
    }),
  );
  const cwd = tempWorkspace('sylvan-runtime-');
  const config = loadConfig(
    [],
    {
      DASHSCOPE_API_KEY: 'test-key',
      DASHSCOPE_BASE_URL: server.baseURL,
      SYLVAN_MODEL: 'qwen-plus',
      SYLVAN_CONTEXT_TOKENS: String(WINDOW_TOKENS),
      SYLVAN_MAX_RETRIES: '0',
      SYLVAN_HOME: join(cwd, '.sylvan-home'),
    },
    cwd,
  ) as Config;
  const runtime = createRuntime(config, { modelFactory: await loadModelFactory(config) });
  // With an empty history, the share of the window in use is the instructions and tools; the answer's room (15% of the window, at most 8,192) is kept too.
  const reserved = Math.round(runtime.contextShare() * WINDOW_TOKENS) + Math.min(8_192, Math.floor(WINDOW_TOKENS * 0.15));
  return { runtime, server, historyRoom: WINDOW_TOKENS - reserved, home: config.home };
}

/** Runs one turn to its end and returns what it showed the user. */
async function turn(runtime: Runtime, line: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  const collect = async () => {
    for await (const event of runtime.runTurn(line, new AbortController().signal, printApproval(false))) events.push(event);
  };
  await withDeadline(collect(), 30_000, `the turn "${line.slice(0, 20)}…" to end`);
  const end = events.find((event) => event.type === 'turn-end');
  assert.equal(end?.type === 'turn-end' && end.stopReason, 'completed', JSON.stringify(end));
  return events;
}

const userTexts = (request: RecordedRequest | undefined): string[] =>
  (request?.body?.messages ?? []).filter((message) => message.role === 'user').map((message) => contentText(message.content));
const notices = (events: AgentEvent[]): string[] => events.flatMap((event) => (event.type === 'notice' ? [event.message] : []));

/** Usage a provider reports when it counts far more tokens than the estimate (the fitter's ratio caps at 2). */
const countsDouble: ScriptedUsage = { promptTokens: 50_000, completionTokens: 5 };
/** Usage below every estimate: the fitter never scales its estimate down. */
const countsLittle: ScriptedUsage = { promptTokens: 1, completionTokens: 1 };

describe('runtime: the history is sized by what the provider reports', () => {
  test('when the provider counts more than estimated, the next request leaves the older turn out', TEST_TIMEOUT, async () => {
    const { runtime, server, historyRoom } = await startRuntime(countsDouble);
    // Two turns of ~35% of the room each: both fit by the estimate, not at twice the estimate.
    const first = `第一段：${chinese(Math.round(historyRoom * 0.35))}`;
    const second = `第二段：${chinese(Math.round(historyRoom * 0.35))}`;
    await turn(runtime, first);
    const events = await turn(runtime, second);
    runtime.close();

    assert.deepEqual(userTexts(server.requests[1]), [second], 'the second request carries only the second turn');
    assert.ok(
      notices(events).some((notice) => /1 older turn left out to fit the 8k context window/.test(notice)),
      `the user is told a turn was left out: ${JSON.stringify(notices(events))}`,
    );
  });

  test('when it counts less, the estimate stands and both turns are sent', TEST_TIMEOUT, async () => {
    const { runtime, server, historyRoom } = await startRuntime(countsLittle);
    const first = `第一段：${chinese(Math.round(historyRoom * 0.35))}`;
    const second = `第二段：${chinese(Math.round(historyRoom * 0.35))}`;
    await turn(runtime, first);
    const events = await turn(runtime, second);
    runtime.close();

    assert.deepEqual(userTexts(server.requests[1]), [first, second]);
    assert.deepEqual(notices(events), []);
  });
});

describe('runtime: how full the context is (the turn line and /usage)', () => {
  test("is the provider's count of the last step, and the estimate again once the history is replaced", TEST_TIMEOUT, async () => {
    const { runtime } = await startRuntime({ promptTokens: 2_000, completionTokens: 400 });
    const empty = runtime.contextShare();
    assert.ok(empty > 0 && empty < 0.5, `instructions and tools alone: ${empty}`);
    await turn(runtime, '你好');
    assert.equal(Math.round(runtime.contextShare() * WINDOW_TOKENS), 2_400, 'the prompt and the answer the provider counted');
    runtime.clear();
    assert.equal(runtime.contextShare(), empty, 'a new history is estimated');
    runtime.close();
  });
});

describe('runtime: a command the user runs (!command)', () => {
  test("runs as run_command does, without the keys, and the next request and the session carry it as the user's own", TEST_TIMEOUT, async () => {
    const { runtime, server, home } = await startRuntime(countsLittle);
    const progress: string[] = [];
    const result = await runtime.runUserCommand('echo hi; echo "key=$DASHSCOPE_API_KEY"; echo test-key', new AbortController().signal, (text) => progress.push(text));
    assert.equal(result.ok, true, JSON.stringify(result));
    const output = result.ok ? result.output : '';
    assert.match(output, /^exit code 0 \(/);
    assert.match(output, /stdout:\nhi\nkey=\n\[redacted\]$/, 'no key in its environment, and none in what it printed');
    await turn(runtime, '它打印了什么？');
    runtime.close();
    const [ran, asked] = userTexts(server.requests[0]);
    assert.match(ran ?? '', /^I ran `echo hi; echo "key=\$DASHSCOPE_API_KEY"; echo \[redacted\]`:\nexit code 0 [^\n]*\nstdout:\nhi\n/);
    assert.equal(asked, '它打印了什么？');
    const saved = readFileSync(join(home, 'sessions', `${runtime.sessionId}.jsonl`), 'utf8');
    assert.match(saved, /I ran `echo hi/);
    assert.doesNotMatch(saved, /test-key/);
  });

  test('a stopped command says so, and that is what the history keeps', TEST_TIMEOUT, async () => {
    const { runtime } = await startRuntime(countsLittle);
    const controller = new AbortController();
    const running = runtime.runUserCommand('echo started; sleep 30', controller.signal, () => controller.abort());
    const result = await withDeadline(running, 20_000, 'the stopped command to end');
    runtime.close();
    assert.deepEqual({ ok: result.ok, error: result.ok ? '' : result.error }, { ok: false, error: 'it was stopped (Ctrl-C) before it finished.' });
    assert.equal(
      contentText(runtime.conversation.messages.at(-1)?.content),
      'I ran `echo started; sleep 30`, and it did not finish: it was stopped (Ctrl-C) before it finished.',
    );
  });
});

describe('runtime: automatic compaction past 80% of the room for history', () => {
  /** Two turns filling `share` of the room for history, then a third; returns the third's events and the server. */
  async function fillThenAsk(share: number) {
    const { runtime, server, historyRoom } = await startRuntime(countsLittle);
    await turn(runtime, `第一段：${chinese(Math.round(historyRoom * share * 0.5))}`);
    await turn(runtime, `第二段：${chinese(Math.round(historyRoom * share * 0.5))}`);
    const filled = runtime.historyTokens() / historyRoom;
    const requestsBefore = server.requests.length;
    const events = await turn(runtime, '还记得吗？');
    runtime.close();
    return { events, filled, compactions: server.requests.slice(requestsBefore).filter(isCompactionRequest).length };
  }

  test('at ~90% the history is summarised before the next turn, and the user is told', TEST_TIMEOUT, async () => {
    const { events, filled, compactions } = await fillThenAsk(0.9);
    assert.ok(filled > 0.82 && filled < 0.98, `the two turns fill ${filled.toFixed(2)} of the room, meant to be about 0.9`);
    assert.equal(compactions, 1);
    assert.deepEqual(notices(events).slice(0, 2), ['(the conversation is near the context limit: summarising older turns…)', '(older turns summarised)']);
  });

  test('at ~70% it is left as it is', TEST_TIMEOUT, async () => {
    const { events, filled, compactions } = await fillThenAsk(0.7);
    assert.ok(filled > 0.62 && filled < 0.78, `the two turns fill ${filled.toFixed(2)} of the room, meant to be about 0.7`);
    assert.equal(compactions, 0);
    assert.deepEqual(notices(events), []);
  });
});
