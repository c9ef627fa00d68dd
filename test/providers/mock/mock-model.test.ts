import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { streamText, tool } from 'ai';
import type { ModelMessage, ToolSet } from 'ai';
import { z } from 'zod';
import { createMockModel } from '../../../src/providers/mock/mock-model.ts';

// The shapes Sylvan's get_weather returns: sample data, and live data with an observation time.
const BEIJING_WEATHER =
  'Beijing (北京), China (sample data, not live): Mainly clear, 12°C (feels like 10°C), humidity 35%, wind 14 km/h from the NW, UV index 3. These are fixed sample values, not current weather; say so when you use them.';
const SHANGHAI_WEATHER =
  'Shanghai (上海), China: Slight rain, 18°C (feels like 17°C), humidity 80%, wind 9 km/h from the E, UV index 1. Observed 2026-11-30T14:00 local time (Asia/Shanghai).';
const PACKAGE_JSON_RESULT = [
  'package.json (5 lines, 96 bytes)',
  '1\t{',
  '2\t  "name": "sylvan",',
  '3\t  "version": "0.1.0",',
  '4\t  "dependencies": { "ai": "^7.0.0", "zod": "^4.0.0" }',
  '5\t}',
].join('\n');

type ToolCallRecord = { toolName: string; input: Record<string, unknown> };

/** Tools named and shaped like Sylvan's, with stub executes that record what they were asked. */
function createTools(options: { needsApproval?: boolean } = {}) {
  const executed: ToolCallRecord[] = [];
  const record = (toolName: string, input: Record<string, unknown>) => executed.push({ toolName, input });
  const tools = {
    get_weather: tool({
      description: 'Current weather for a city (sample data).',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        record('get_weather', { city });
        if (city === '北京' || city === 'Beijing') return BEIJING_WEATHER;
        if (city === '上海' || city === 'Shanghai') return SHANGHAI_WEATHER;
        throw new Error(`There is no sample weather for "${city}"; sample data covers only Beijing (北京), Shanghai (上海). Tell the user this; do not invent weather.`);
      },
    }),
    calculate: tool({
      description: 'Evaluate an arithmetic expression.',
      inputSchema: z.object({ expression: z.string() }),
      execute: async ({ expression }) => {
        record('calculate', { expression });
        if (expression === '(2+3)*4') return '(2+3)*4 = 20';
        throw new Error(`division by zero in "${expression}"; check the divisor`);
      },
    }),
    current_time: tool({
      description: 'The current date and time.',
      inputSchema: z.object({ timezone: z.string().optional() }),
      execute: async (input) => {
        record('current_time', input);
        return '2025-05-01 14:30:00 (Thursday), Asia/Shanghai (UTC+08:00)';
      },
    }),
    read_file: tool({
      description: 'Read a text file in the workspace.',
      inputSchema: z.object({ path: z.string(), offset: z.number().optional(), limit: z.number().optional() }),
      execute: async (input) => {
        record('read_file', input);
        return PACKAGE_JSON_RESULT;
      },
    }),
    list_files: tool({
      description: 'List files in a workspace folder.',
      inputSchema: z.object({ path: z.string().optional(), pattern: z.string().optional() }),
      execute: async (input) => {
        record('list_files', input);
        return '3 entries under src/\nsrc/cli.ts\nsrc/model/\nsrc/tools/';
      },
    }),
    write_file: tool({
      description: 'Write a text file in the workspace.',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      needsApproval: options.needsApproval ?? false,
      execute: async (input) => {
        record('write_file', input);
        return `Wrote ${input.path} (1 line, ${Buffer.byteLength(input.content)} bytes)`;
      },
    }),
  };
  return { tools, executed };
}

type StepOutcome = {
  toolCalls: ToolCallRecord[];
  text: string;
  finishReason: string | undefined;
  approvalIds: string[];
  responseMessages: ModelMessage[];
};

async function runStep(model: LanguageModelV4, messages: ModelMessage[], tools: ToolSet): Promise<StepOutcome> {
  const result = streamText({ model, tools, messages, instructions: 'You are Sylvan.', onError: () => {} });
  const outcome: StepOutcome = { toolCalls: [], text: '', finishReason: undefined, approvalIds: [], responseMessages: [] };
  for await (const part of result.stream) {
    if (part.type === 'tool-call') outcome.toolCalls.push({ toolName: part.toolName, input: part.input as Record<string, unknown> });
    if (part.type === 'text-delta') outcome.text += part.text;
    if (part.type === 'tool-approval-request') outcome.approvalIds.push(part.approvalId);
    if (part.type === 'finish') outcome.finishReason = part.finishReason;
  }
  outcome.responseMessages = await result.responseMessages;
  return outcome;
}

/** One user turn the way the agent loop runs it: a step, and a second step when the first ended in tool calls. */
async function runTurn(model: LanguageModelV4, history: ModelMessage[], userText: string, tools = createTools().tools) {
  const messages: ModelMessage[] = [...history, { role: 'user', content: userText }];
  const first = await runStep(model, messages, tools);
  messages.push(...first.responseMessages);
  if (first.finishReason !== 'tool-calls') return { first, answer: first.text, messages };
  const second = await runStep(model, messages, tools);
  messages.push(...second.responseMessages);
  assert.equal(second.finishReason, 'stop');
  assert.deepEqual(second.toolCalls, []);
  return { first, answer: second.text, messages };
}

describe('mock model: weather and arithmetic', () => {
  test('a Chinese weather question calls get_weather for 北京 and answers from the result in Chinese', async () => {
    const { first, answer } = await runTurn(createMockModel(), [], '今天北京天气怎么样？');
    assert.deepEqual(first.toolCalls, [{ toolName: 'get_weather', input: { city: '北京' } }]);
    assert.equal(first.finishReason, 'tool-calls');
    assert.equal(answer, '北京现在基本晴朗，气温 12°C（体感 10°C），湿度 35%，西北风 14 km/h，紫外线指数 3。（示例数据，不是实时天气）');
  });

  test('"(2+3)*4 等于多少？" calculates "(2+3)*4" and states 20', async () => {
    const { first, answer } = await runTurn(createMockModel(), [], '(2+3)*4 等于多少？');
    assert.deepEqual(first.toolCalls, [{ toolName: 'calculate', input: { expression: '(2+3)*4' } }]);
    assert.equal(answer, '(2+3)*4 = 20，结果是 **20**。');
  });

  test('English questions get English answers', async () => {
    const weather = await runTurn(createMockModel(), [], "What's the weather in Beijing?");
    assert.deepEqual(weather.first.toolCalls, [{ toolName: 'get_weather', input: { city: 'Beijing' } }]);
    assert.equal(
      weather.answer,
      "Here's the weather in Beijing, China: Mainly clear, 12°C (feels like 10°C), humidity 35%, wind 14 km/h from the NW, UV index 3. (Sample data, not live.)",
    );
    const sum = await runTurn(createMockModel(), [], 'What is (2+3)*4?');
    assert.deepEqual(sum.first.toolCalls, [{ toolName: 'calculate', input: { expression: '(2+3)*4' } }]);
    assert.match(sum.answer, /the result is \*\*20\*\*/);
  });

  test('two cities give two get_weather calls in one step and an answer for each', async () => {
    const { first, answer } = await runTurn(createMockModel(), [], '北京和上海的天气');
    assert.deepEqual(first.toolCalls.map((call) => call.input.city), ['北京', '上海']);
    assert.match(answer, /^北京现在基本晴朗，气温 12°C/);
    assert.match(answer, /\n\n上海现在小雨，气温 18°C（体感 17°C），湿度 80%，东风 9 km\/h，紫外线指数 1。（当地 2026-11-30 14:00 的观测）$/);
  });

  test('a weather question and a sum in one message give both calls, in the order asked', async () => {
    const { first, answer } = await runTurn(createMockModel(), [], '北京天气怎么样，(2+3)*4 等于多少');
    assert.deepEqual(first.toolCalls, [
      { toolName: 'get_weather', input: { city: '北京' } },
      { toolName: 'calculate', input: { expression: '(2+3)*4' } },
    ]);
    assert.match(answer, /12°C[\s\S]*\*\*20\*\*/);
  });

  test('a tool error is reported as a failure, quoting the error and inventing nothing', async () => {
    const zh = await runTurn(createMockModel(), [], '计算 1/0');
    assert.deepEqual(zh.first.toolCalls, [{ toolName: 'calculate', input: { expression: '1/0' } }]);
    assert.equal(zh.answer, '抱歉，没能算出 1/0 的结果：division by zero in "1/0"; check the divisor');
    const en = await runTurn(createMockModel(), [], "What's the weather in Atlantis?");
    assert.equal(
      en.answer,
      'Sorry, I couldn\'t get the weather for Atlantis: There is no sample weather for "Atlantis"; sample data covers only Beijing (北京), Shanghai (上海).',
    );
    assert.doesNotMatch(en.answer, /°C/);
  });

  test('a weather question without a city asks which city instead of calling a tool', async () => {
    const { first } = await runTurn(createMockModel(), [], '今天天气怎么样？');
    assert.deepEqual(first.toolCalls, []);
    assert.equal(first.finishReason, 'stop');
    assert.match(first.text, /哪个城市/);
  });

  test('only offered tools are called; a missing tool is said plainly', async () => {
    const { calculate } = createTools().tools;
    const messages: ModelMessage[] = [{ role: 'user', content: '北京天气怎么样？' }];
    const step = await runStep(createMockModel(), messages, { calculate });
    assert.deepEqual(step.toolCalls, []);
    assert.match(step.text, /get_weather/);
    assert.match(step.text, /没有启用/);
  });
});

describe('mock model: time and files', () => {
  test('"现在几点？" calls current_time and quotes it', async () => {
    const { first, answer } = await runTurn(createMockModel(), [], '现在几点？');
    assert.deepEqual(first.toolCalls, [{ toolName: 'current_time', input: {} }]);
    assert.equal(answer, '现在是 2025-05-01 14:30:00，星期四（Asia/Shanghai，UTC+08:00）。');
  });

  test('reading package.json shows its content without line numbers, plus a gist', async () => {
    const { first, answer } = await runTurn(createMockModel(), [], '帮我读一下 package.json 的内容');
    assert.deepEqual(first.toolCalls, [{ toolName: 'read_file', input: { path: 'package.json' } }]);
    assert.ok(answer.startsWith('package.json 的内容如下：\n\n```json\n{\n  "name": "sylvan",'), answer);
    assert.doesNotMatch(answer, /\t/);
    assert.match(answer, /这是 sylvan（版本 0\.1\.0）的包配置，依赖有 ai、zod。/);
  });

  test('listing a folder passes the folder and lists the entries', async () => {
    const { first, answer } = await runTurn(createMockModel(), [], '列出 src 目录下的文件');
    assert.deepEqual(first.toolCalls, [{ toolName: 'list_files', input: { path: 'src' } }]);
    assert.equal(answer, 'src/ 下共有 3 项：\n- src/cli.ts\n- src/model/\n- src/tools/');
  });

  test('write "…" to a file writes the quoted text and confirms', async () => {
    const { tools, executed } = createTools();
    const { first, answer } = await runTurn(createMockModel(), [], 'write "hello" to notes.txt', tools);
    assert.deepEqual(first.toolCalls, [{ toolName: 'write_file', input: { path: 'notes.txt', content: 'hello' } }]);
    assert.deepEqual(executed, [{ toolName: 'write_file', input: { path: 'notes.txt', content: 'hello' } }]);
    assert.equal(answer, 'Done — wrote notes.txt (1 line, 5 bytes).');
  });

  test('a denied write is reported as not approved, with nothing changed', async () => {
    const model = createMockModel();
    const { tools, executed } = createTools({ needsApproval: true });
    const messages: ModelMessage[] = [{ role: 'user', content: '把 "hello" 写入 notes.txt' }];
    const first = await runStep(model, messages, tools);
    assert.equal(first.approvalIds.length, 1);
    messages.push(...first.responseMessages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: first.approvalIds[0] ?? '', approved: false }],
    });
    const second = await runStep(model, messages, tools);
    assert.deepEqual(executed, []);
    assert.equal(second.text, '写入 notes.txt 的操作没有被批准，所以我什么都没有改动。');
  });

  test('a denial in English carries its reason', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'save hello to notes.txt' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'write_file', input: { path: 'notes.txt', content: 'hello' } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'write_file', output: { type: 'execution-denied', reason: 'the user said no' } }],
      },
    ];
    const step = await runStep(createMockModel(), messages, createTools().tools);
    assert.equal(step.text, 'The request to write notes.txt was not approved (reason: the user said no), so nothing was changed.');
  });
});

describe('mock model: the conversation itself', () => {
  test('"我之前问了什么？" lists the earlier questions without calling tools', async () => {
    const model = createMockModel();
    const weather = await runTurn(model, [], '北京天气怎么样？');
    const sum = await runTurn(model, weather.messages, '(2+3)*4 等于多少？');
    const recall = await runTurn(model, sum.messages, '我之前问了什么？');
    assert.deepEqual(recall.first.toolCalls, []);
    assert.equal(recall.answer, '你之前问过这些：\n1. 北京天气怎么样？\n2. (2+3)*4 等于多少？');
    const english = await runTurn(model, sum.messages, 'What did I ask earlier?');
    assert.equal(english.answer, 'Earlier you asked:\n1. 北京天气怎么样？\n2. (2+3)*4 等于多少？');
  });

  test('recall uses an earlier /compact summary', async () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'Summary of the earlier conversation:\n- User asked: 上海天气怎么样？' },
      { role: 'assistant', content: '好的，我记住了。' },
    ];
    const turn = await runTurn(createMockModel(), history, '(2+3)*4 等于多少？');
    const recall = await runTurn(createMockModel(), turn.messages, '我刚才问的是什么');
    assert.equal(
      recall.answer,
      '更早的对话已经压缩成了摘要：\n- User asked: 上海天气怎么样？\n\n之后你又问了：\n1. (2+3)*4 等于多少？',
    );
  });

  test('"Summarize the conversation so far" writes a deterministic summary of questions and tool results', async () => {
    const model = createMockModel();
    const weather = await runTurn(model, [], '北京天气怎么样？');
    const sum = await runTurn(model, weather.messages, '(2+3)*4 等于多少？');
    const request = 'Summarize the conversation so far. Keep names of files.';
    const summary = await runTurn(model, sum.messages, request);
    assert.deepEqual(summary.first.toolCalls, []);
    assert.equal(
      summary.answer,
      [
        'Summary of the earlier conversation:',
        '- User asked: 北京天气怎么样？',
        '- get_weather(北京): Beijing (北京), China (sample data, not live): Mainly clear, 12°C (feels like 10°C), humidity 35%, wind 14 km/h from the …',
        '- User asked: (2+3)*4 等于多少？',
        '- calculate((2+3)*4): (2+3)*4 = 20',
      ].join('\n'),
    );
    const again = await runTurn(createMockModel(), sum.messages, request);
    assert.equal(again.answer, summary.answer);
  });

  test('a greeting introduces the offline mock and how to connect a real model', async () => {
    const zh = await runTurn(createMockModel(), [], '你好');
    assert.deepEqual(zh.first.toolCalls, []);
    assert.match(zh.answer, /离线模拟模型/);
    assert.match(zh.answer, /DASHSCOPE_API_KEY/);
    assert.match(zh.answer, /OPENAI_API_KEY/);
    const en = await runTurn(createMockModel(), [], 'hello!');
    assert.match(en.answer, /offline mock model/);
    assert.match(en.answer, /\.env/);
  });

  test('anything else gets an honest mock answer in the user\'s language', async () => {
    const zh = await runTurn(createMockModel(), [], '写一首关于秋天的诗');
    assert.deepEqual(zh.first.toolCalls, []);
    assert.match(zh.answer, /^我是离线模拟模型/);
    const en = await runTurn(createMockModel(), [], 'Tell me a joke about cats');
    assert.match(en.answer, /^I'm the offline mock model/);
    assert.doesNotMatch(en.answer, /[\u4e00-\u9fff]/);
  });
});
