import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { APICallError } from 'ai';
import { debugDetail, describeModelError } from '../../src/providers/errors/describe-error.ts';
import { type ProviderContext } from '../../src/providers/errors/provider-errors.ts';

const BASE_URL = 'https://dashscope.aliyuncs.com/compatible-mode/v1';
const dashscope: ProviderContext = {
  label: 'DashScope',
  model: 'qwen-plus-latest',
  baseURL: BASE_URL,
  keyVariable: 'DASHSCOPE_API_KEY',
  baseUrlVariable: 'DASHSCOPE_BASE_URL',
};
const local: ProviderContext = {
  label: 'The OpenAI-compatible server',
  model: 'llama3',
  baseURL: 'http://127.0.0.1:11434/v1',
  keyVariable: 'OPENAI_API_KEY',
  baseUrlVariable: 'OPENAI_BASE_URL',
};

function apiError(statusCode: number, responseBody?: string): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: `${BASE_URL}/chat/completions`,
    requestBodyValues: {},
    statusCode,
    responseBody,
    isRetryable: statusCode === 429 || statusCode >= 500,
  });
}

/** What `ai` throws once its retries are used up (RetryError is not in the package's types). */
function retryError(errors: unknown[]): Error {
  const error = new Error(`Failed after ${errors.length} attempts. Last error: ${String((errors.at(-1) as Error)?.message)}`);
  return Object.assign(error, { name: 'AI_RetryError', reason: 'maxRetriesExceeded', errors, lastError: errors.at(-1) });
}

/** undici's refused connection as the provider sees it: APICallError → TypeError('fetch failed') → system error. */
function connectionError(code: string, url: string): APICallError {
  const system = Object.assign(new Error(`connect ${code} 127.0.0.1:11434`), { code, syscall: 'connect' });
  const fetchFailed = new TypeError('fetch failed', { cause: system });
  return new APICallError({
    message: 'Cannot connect to API: fetch failed',
    url: `${url}/chat/completions`,
    requestBodyValues: {},
    cause: fetchFailed,
    isRetryable: true,
  });
}

function describeOneLine(error: unknown, provider: ProviderContext = dashscope): string {
  const line = describeModelError(error, provider);
  assert.equal(typeof line, 'string');
  assert.ok(line.length > 0);
  assert.equal(line.includes('\n'), false, `not one line: ${JSON.stringify(line)}`);
  return line;
}

describe('describeModelError: HTTP statuses', () => {
  test('401 names the key variable', () => {
    const line = describeOneLine(apiError(401));
    assert.match(line, /\(401\)/);
    assert.match(line, /DASHSCOPE_API_KEY/);
    assert.match(line, /DashScope/);
  });

  test('403 is about the account and the model, never a rejected key', () => {
    const line = describeOneLine(apiError(403));
    assert.match(line, /\(403\)/);
    assert.match(line, /qwen-plus-latest/);
    assert.match(line, /\/model/);
    assert.doesNotMatch(line, /rejected the API key|DASHSCOPE_API_KEY/);
  });

  test('401 includes the server’s own words, squeezed to one line', () => {
    const body = JSON.stringify({ error: { message: 'Incorrect API key\nprovided.', type: 'invalid_request_error' } });
    assert.match(describeOneLine(apiError(401, body)), /Incorrect API key provided\./);
  });

  test('401 without a known variable still says to check the key', () => {
    assert.match(describeOneLine(apiError(401), { label: 'Somewhere', model: 'm' }), /API key/);
  });

  test('404 names the model and the base URL variable', () => {
    const line = describeOneLine(apiError(404), { ...dashscope, model: 'qwen-nonexistent' });
    assert.match(line, /404/);
    assert.match(line, /"qwen-nonexistent"/);
    assert.match(line, /DASHSCOPE_BASE_URL/);
    assert.ok(line.includes(BASE_URL));
  });

  test('429 after retries says the status and the number of tries', () => {
    const line = describeOneLine(retryError([apiError(429), apiError(429), apiError(429), apiError(429)]));
    assert.match(line, /429/);
    assert.match(line, /after 4 tries/);
  });

  test('500 after retries says the status and the number of tries', () => {
    const line = describeOneLine(retryError([apiError(502), apiError(500), apiError(500)]));
    assert.match(line, /\b500\b/);
    assert.match(line, /after 3 tries/);
  });

  test('a single failure does not claim retries', () => {
    assert.doesNotMatch(describeOneLine(apiError(503)), /tries/);
    assert.doesNotMatch(describeOneLine(retryError([apiError(500)])), /tries/);
  });

  test('400 says the request was refused', () => {
    assert.match(describeOneLine(apiError(400, '{"message":"messages with role tool must follow tool_calls"}')), /400.*tool_calls/);
  });
});

describe('describeModelError: network failures', () => {
  test('ECONNREFUSED through the nested cause chain names the URL and the variable', () => {
    const line = describeOneLine(connectionError('ECONNREFUSED', local.baseURL!), local);
    assert.ok(line.includes('http://127.0.0.1:11434/v1'), line);
    assert.match(line, /refused/);
    assert.match(line, /OPENAI_BASE_URL/);
  });

  test('ECONNREFUSED after retries counts the tries', () => {
    const attempt = () => connectionError('ECONNREFUSED', local.baseURL!);
    assert.match(describeOneLine(retryError([attempt(), attempt(), attempt()]), local), /after 3 tries/);
  });

  test('ENOTFOUND names the URL and the code', () => {
    const line = describeOneLine(connectionError('ENOTFOUND', BASE_URL));
    assert.ok(line.includes(BASE_URL), line);
    assert.match(line, /ENOTFOUND/);
    assert.match(line, /DASHSCOPE_BASE_URL/);
  });

  test('an SDK "Cannot connect" without a code still names the URL', () => {
    const error = new APICallError({ message: 'Cannot connect to API: fetch failed', url: BASE_URL, requestBodyValues: {} });
    const line = describeOneLine(error);
    assert.match(line, /Could not connect/);
    assert.ok(line.includes(BASE_URL));
  });

  test('a stream cut in the middle ("terminated") says the answer was cut off', () => {
    const cut = new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    assert.match(describeOneLine(cut), /cut off/);
  });

  test('a stream cut wrapped by the SDK (status 200) is a cut, not an HTTP error', () => {
    const cut = new APICallError({
      message: 'Failed to process successful response',
      url: `${BASE_URL}/chat/completions`,
      requestBodyValues: {},
      statusCode: 200,
      cause: new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }),
    });
    const line = describeOneLine(cut);
    assert.match(line, /cut off/);
    assert.doesNotMatch(line, /200/);
  });

  test('a reset connection is a cut', () => {
    assert.match(describeOneLine(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })), /cut off/);
  });
});

describe('describeModelError: odd inputs', () => {
  test('never throws; one line that says what failed, with what the input did say', () => {
    const cyclic: { message: string; cause?: unknown } = { message: 'loop' };
    cyclic.cause = cyclic;
    const cases: [unknown, RegExp][] = [
      ['plain string', /plain string/],
      [new Error('multi\nline\n\nmessage'), /multi line message/],
      [cyclic, /loop/],
      [{ statusCode: 418 }, /DashScope.*418/],
      [undefined, /request/i],
      [null, /request/i],
      [42, /request/i],
      [{}, /request/i],
    ];
    for (const [input, says] of cases) {
      const line = describeOneLine(input);
      assert.match(line, says, `for ${String(input)}`);
      assert.match(line, /request|DashScope/i, `the line says what failed: ${line}`);
      assert.doesNotMatch(line, /\[object Object\]/, line);
    }
  });

  test('a plain Error’s message is shown, squeezed to one line', () => {
    assert.match(describeOneLine(new Error('something\n  broke')), /something broke/);
    assert.match(describeOneLine('plain string'), /plain string/);
  });

  test('an error object whose message is not a string says the request failed and where to find the details', () => {
    for (const input of [{ message: 42 }, { message: { text: 'nested' } }]) {
      const line = describeOneLine(input);
      assert.match(line, /request failed/i, line);
      assert.match(line, /SYLVAN_DEBUG=1/, line);
      assert.doesNotMatch(line, /\[object Object\]/, line);
    }
  });
});

describe('debugDetail', () => {
  test('the stack of an Error, nothing for anything else', () => {
    const error = new Error('boom');
    assert.equal(debugDetail(error), error.stack);
    assert.equal(debugDetail('boom'), undefined);
  });
});
