import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { streamText } from 'ai';
import { describeModelError } from '../../src/providers/errors/describe-error.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { Config } from '../../src/config/config.ts';
import { providerContext } from '../../src/providers/create-model.ts';
import { classifyProblem, problemLine } from '../../src/providers/errors/provider-errors.ts';
import { startDashScopeServer, text, type DashScopeServer, type Reply } from '../helpers/dashscope-server.ts';
import { textChunk } from '../helpers/fixture-replies.ts';
import { fixtureMessage, providerErrorFixture, providerErrorReply as reply } from '../helpers/provider-error-fixtures.ts';
import { closeAtEnd } from '../helpers/served.ts';
import { loadModelFactory } from '../../src/providers/load-model-factory.ts';

// Issue 23, section 1: other providers' errors read by what they mean, wherever they arrive (an
// HTTP status with a JSON body in any shape, or a frame inside a 200 stream). Each recorded or
// rebuilt body (test/fixtures/provider-errors/README.md) is served by the loopback server to
// Sylvan's own model (the provider, guarded fetch and stream guard a user has), and the error
// is worded by describeModelError, as the agent loop does. The server counts the requests, so a
// retry shows; every reply says `retry-after: 0`, so a retry costs no time. Through the built CLI:
// test/cli/error-lines-by-meaning.test.ts.

const KEY = 'sk-meaning-test';
const TIMEOUT = { timeout: 30_000 };
const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Outcome {
  server: DashScopeServer;
  /** The answer text that arrived before the error. */
  text: string;
  /** The line the user reads; undefined when the request succeeded. */
  line: string | undefined;
}

/** One model request as the OpenAI-compatible provider (two retries allowed), its error worded for the user. */
async function ask(replies: Reply[], model: string): Promise<Outcome> {
  const server = closeAtEnd(await startDashScopeServer({ replies, apiKey: KEY }));
  const folder = mkdtempSync(join(tmpdir(), 'sylvan-meaning-'));
  folders.push(folder);
  const environment = { SYLVAN_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL, SYLVAN_MAX_RETRIES: '2', SYLVAN_HOME: folder };
  const config = loadConfig(['-p', '-m', model, 'hello'], environment, folder) as Config;
  let answer = '';
  let failure: unknown;
  try {
    const result = streamText({ model: (await loadModelFactory(config))(config), prompt: 'hello', maxRetries: 0, onError: () => {} });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') answer += part.text;
      if (part.type === 'error') failure ??= part.error;
    }
  } catch (error) {
    failure ??= error;
  }
  return { server, text: answer, line: failure === undefined ? undefined : describeModelError(failure, providerContext(config)) };
}

/** The server's message appears exactly once (its first 40 characters: long ones are clipped). */
function saysOnce(line: string, message: string): void {
  const head = message.replace(/\s+/g, ' ').slice(0, 40);
  assert.equal(line.split(head).length - 1, 1, `the server's message once in: ${line}`);
}

const TOO_LONG = /Sylvan assumed a window of 32,768 tokens \(SYLVAN_CONTEXT_TOKENS\); \/compact summarises the conversation, \/clear starts over\.$/;
const BALANCE = /Top up or enable it in the provider's console, or pick another model with \/model\.$/;

interface Case {
  name: string;
  fixture: string;
  model: string;
  replies: Reply[];
  /** Requests the server should receive. */
  requests: number;
  line: RegExp;
  /** The kind's advice. */
  advice: RegExp;
  never?: RegExp;
  /** Text that arrived before the error and stays. */
  before?: string;
}

const once = (fixture: string, textBefore?: string): Reply[] => [reply(fixture, textBefore), text('never')];
const always = (fixture: string): Reply[] => [reply(fixture), reply(fixture), reply(fixture), text('never')];

const cases: Case[] = [
  {
    name: 'Zhipu 1113 in Chinese as a 429 (余额不足): balance, one request, never throttling',
    fixture: 'zhipu_1113_balance_zh',
    model: 'glm-4.6',
    replies: always('zhipu_1113_balance_zh'),
    requests: 1,
    line: /^Your account cannot use glm-4\.6 \(429 1113\) \(余额不足或无可用资源包,请充值。\)\. /,
    advice: BALANCE,
    never: /rate-limiting|Wait a minute|tries/,
  },
  {
    name: 'Zhipu 1113 in English as a 429: the same',
    fixture: 'zhipu_1113_balance_en',
    model: 'glm-4.6',
    replies: always('zhipu_1113_balance_en'),
    requests: 1,
    line: /^Your account cannot use glm-4\.6 \(429 1113\) \(Insufficient balance or no resource package\. Please recharge\.\)\. /,
    advice: BALANCE,
    never: /rate-limiting|tries/,
  },
  {
    name: 'llama.cpp "Context size has been exceeded." as a 500: too long, never retried or called a passing fault',
    fixture: 'llamacpp_context_500',
    model: 'local-model',
    replies: always('llamacpp_context_500'),
    requests: 1,
    line: /^The conversation is too long for local-model \(500 server_error\) \(Context size has been exceeded\.\)\. /,
    advice: TOO_LONG,
    never: /server's side|in a moment|tries/,
  },
  {
    name: "llama.cpp's exceed_context_size_error (400, code 400): the status once, then the type",
    fixture: 'llamacpp_context_400',
    model: 'local-model',
    replies: once('llamacpp_context_400'),
    requests: 1,
    line: /^The conversation is too long for local-model \(400 exceed_context_size_error\) \(request \(4390 tokens\) exceeds/,
    advice: TOO_LONG,
    never: /400 400/,
  },
  {
    name: "vLLM's top-level object:error body (400): too long, the status once",
    fixture: 'vllm_context_400',
    model: 'local-model',
    replies: once('vllm_context_400'),
    requests: 1,
    line: /^The conversation is too long for local-model \(400 BadRequestError\) \(This model's maximum context length is 4096 tokens/,
    advice: TOO_LONG,
    never: /400 400/,
  },
  {
    name: 'an OpenAI-style server_error as the first frame of a 200 stream, every time: retried like a 500',
    fixture: 'azure_server_error_frame',
    model: 'gpt-4o',
    replies: always('azure_server_error_frame'),
    requests: 3,
    line: /^The OpenAI-compatible server reported a server error \(server_error\) after 3 tries \(The server had an error /,
    advice: /This is on the server's side; try again in a moment\.$/,
  },
  {
    name: 'the same server_error frame after text was shown: not retried, the text stays',
    fixture: 'azure_server_error_frame',
    model: 'gpt-4o',
    replies: once('azure_server_error_frame', 'Here is the start'),
    requests: 1,
    line: /^The OpenAI-compatible server reported a server error \(server_error\) \(The server had an error /,
    advice: /try again in a moment\.$/,
    never: /tries/,
    before: 'Here is the start',
  },
  {
    name: "SGLang's context-length error as the first frame of a 200 stream: too long, never \"Try again.\"",
    fixture: 'sglang_context_frame',
    model: 'Qwen3-32B',
    replies: always('sglang_context_frame'),
    requests: 1,
    line: /^The conversation is too long for Qwen3-32B \(400\) \(The input \(61709 tokens\) is longer than the model's context length \(40960 tokens\)\.\)\. /,
    advice: TOO_LONG,
    never: /Try again\.|tries/,
  },
  {
    name: "SGLang's context-length error after some text: still too long, not retried",
    fixture: 'sglang_context_frame',
    model: 'Qwen3-32B',
    replies: once('sglang_context_frame', 'Let me'),
    requests: 1,
    line: /^The conversation is too long for Qwen3-32B \(400\) \(The input \(61709 tokens\)/,
    advice: TOO_LONG,
    never: /Try again\./,
    before: 'Let me',
  },
  {
    name: "Ollama's \"not found, try pulling it first\" (404) keeps its hint: ollama pull NAME",
    fixture: 'ollama_model_not_found',
    model: 'ollama',
    replies: once('ollama_model_not_found'),
    requests: 1,
    line: /^The OpenAI-compatible server has no model "ollama" \(404 api_error\) \(model "ollama" not found, try pulling it first\)\. /,
    advice: /Run `ollama pull ollama` on the server, or pick another model with \/model\.$/,
  },
  {
    name: "Volcengine Ark's ModelNotOpen (404): activate the model, never \"check the model name\"",
    fixture: 'ark_model_not_open',
    model: 'doubao-seedance-2-0-mini-260615',
    replies: once('ark_model_not_open'),
    requests: 1,
    line: /^Your account cannot use doubao-seedance-2-0-mini-260615 \(404 ModelNotOpen\) \(Your account 2100815854 has not activated /,
    advice: /Activate \(enable\) the model for your account in the provider's console, or pick another model with \/model\.$/,
    never: /Check the model name|404 Not Found/,
  },
  {
    name: "SiliconFlow's 30011 (403, top-level {code, message, data}): paid balance, never model access",
    fixture: 'siliconflow_30011',
    model: 'Pro/deepseek-ai/DeepSeek-R1',
    replies: once('siliconflow_30011'),
    requests: 1,
    line: /^Your account cannot use Pro\/deepseek-ai\/DeepSeek-R1 \(403 30011\) \(The selected model requires paid balance\. /,
    advice: BALANCE,
    never: /Activate/,
  },
  {
    name: "DeepSeek's 402 Insufficient Balance (a generic code): balance",
    fixture: 'deepseek_insufficient_balance',
    model: 'deepseek-chat',
    replies: once('deepseek_insufficient_balance'),
    requests: 1,
    line: /^Your account cannot use deepseek-chat \(402 invalid_request_error\) \(Insufficient Balance\)\. /,
    advice: BALANCE,
  },
];

describe('errors by what they mean, retried only where a retry can help', TIMEOUT, () => {
  for (const entry of cases) {
    test(entry.name, async () => {
      const { server, text: answer, line } = await ask(entry.replies, entry.model);
      assert.ok(line !== undefined, 'the request failed');
      assert.equal(line.includes('\n'), false, 'one line');
      assert.equal(server.requests.length, entry.requests, `requests the server received; line: ${line}`);
      assert.match(line, entry.line);
      assert.match(line, entry.advice);
      if (entry.never) assert.doesNotMatch(line, entry.never);
      saysOnce(line, fixtureMessage(entry.fixture));
      assert.equal(answer, entry.before ?? '');
    });
  }

  test('a server_error first frame, then an answer: the answer arrives after one retry', async () => {
    const { server, text: answer, line } = await ask([reply('azure_server_error_frame'), text('Recovered.')], 'gpt-4o');
    assert.equal(line, undefined);
    assert.equal(answer, 'Recovered.');
    assert.equal(server.requests.length, 2);
  });

  test('an error after an opening chunk that shows nothing (role, empty content) is still retried: nothing was shown', async () => {
    const { body } = providerErrorFixture('azure_server_error_frame');
    const silentThenError: Reply = { kind: 'raw', chunks: [textChunk(''), body], headers: { 'retry-after': '0' } };
    const { server, text: answer, line } = await ask([silentThenError, text('Recovered.')], 'gpt-4o');
    assert.equal(line, undefined);
    assert.equal(answer, 'Recovered.');
    assert.equal(server.requests.length, 2);
  });
});

describe('the table: meaning before status, English and Chinese', { timeout: 10_000 }, () => {
  const context = { label: 'The server', model: 'm', contextTokens: 8192, attempts: 1 };
  test('documented codes and wordings of each kind, whatever the status', () => {
    const cases: Array<[object, string, boolean]> = [
      [{ status: 429, message: '余额不足或无可用资源包,请充值。' }, 'account', false],
      [{ status: 400, message: '您的账户已欠费，请充值后重试' }, 'account', false],
      [{ status: 200, code: '1261', message: 'Prompt 超长' }, 'context-too-long', false],
      [{ status: 400, message: '输入长度超过模型上下文限制' }, 'context-too-long', false],
      [{ status: 400, message: '请求的上下文长度超出了模型的最大限制' }, 'context-too-long', false],
      [{ status: 400, message: '上下文缓存创建失败' }, 'bad-request', false],
      [{ status: 400, type: 'invalid_request_error', message: 'Your request exceeded model token limit: 8192' }, 'context-too-long', false],
      [{ status: 400, code: 'context_length_exceeded' }, 'context-too-long', false],
      [{ status: 500, code: '1301', message: '系统检测到输入或生成内容可能包含不安全或敏感内容' }, 'moderation', false],
      [{ status: 429, code: '1302', message: '您当前使用该API的并发数过高' }, 'throttled', true],
      [{ status: 400, message: '请求过于频繁，请稍后再试' }, 'throttled', true],
      [{ status: 400, code: '1211', message: '模型不存在，请检查模型代码。' }, 'model-not-found', false],
      [{ status: 401, code: '1002', message: 'Authorization Token非法，请确认Authorization Token正确传递。' }, 'bad-key', false],
      [{ status: 400, message: '当前模型未开通' }, 'model-access', false],
      [{ status: 200, type: 'server_error', message: 'boom' }, 'server', true],
      [{ status: 200, message: '服务器繁忙，请稍后重试' }, 'server', true],
      [{ status: 500, type: 'server_error', message: 'Context size has been exceeded.' }, 'context-too-long', false],
      [{ status: 400, code: 'invalid_parameter_error', message: 'Range of input length should be [1, 129024]' }, 'context-too-long', false],
      [{ status: 400, code: 'invalid_parameter_error', message: 'Range of max_tokens should be [1, 8192]' }, 'bad-request', false],
      [{ status: 200, message: 'something odd' }, 'in-stream', false],
      [{ status: 400, code: 'InternalError.Algo.InvalidParameter', message: 'The tool call is not supported.' }, 'bad-request', false],
      [{ status: 500, code: 'InternalError', message: 'An internal error has occured, please try again later.' }, 'server', true],
    ];
    for (const [problem, kind, retry] of cases) assert.deepEqual(classifyProblem(problem), { kind, retry }, JSON.stringify(problem));
  });

  test('the status is not repeated by a code that only repeats it; the window is the one Sylvan assumed', () => {
    const line = problemLine({ status: 400, code: '400', type: 'exceed_context_size_error', message: 'too big' }, context);
    assert.equal(line, 'The conversation is too long for m (400 exceed_context_size_error) (too big). Sylvan assumed a window of 8,192 tokens (SYLVAN_CONTEXT_TOKENS); /compact summarises the conversation, /clear starts over.');
    assert.equal(problemLine({ status: 400, code: '400', message: 'bad' }, context), 'The server refused the request (400) (bad).');
    const compacting = problemLine({ status: 400, code: 'context_length_exceeded', message: 'too big' }, { ...context, compacting: true });
    assert.match(compacting, /\(SYLVAN_CONTEXT_TOKENS\); \/clear starts over\.$/, 'compaction itself too long: /compact cannot help');
  });
});
