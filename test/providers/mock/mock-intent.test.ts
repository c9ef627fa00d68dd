import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { decideMockReply } from '../../../src/providers/mock/mock-intent.ts';
import type { MockReply } from '../../../src/providers/mock/mock-intent.ts';
import type { AvailableTools } from '../../../src/providers/mock/mock-tool-intents.ts';

const ALL_TOOLS: AvailableTools = new Map([
  ['get_weather', new Set(['city'])],
  ['calculate', new Set(['expression'])],
  ['current_time', new Set(['timezone'])],
  ['read_file', new Set(['path', 'offset', 'limit'])],
  ['list_files', new Set(['path', 'pattern'])],
  ['write_file', new Set(['path', 'content'])],
]);

function user(text: string): LanguageModelV4Prompt[number] {
  return { role: 'user', content: [{ type: 'text', text }] };
}

function decide(text: string, tools: AvailableTools = ALL_TOOLS, history: LanguageModelV4Prompt = []): MockReply {
  return decideMockReply([{ role: 'system', content: 'You are Sylvan.' }, ...history, user(text)], tools);
}

function calls(text: string, tools?: AvailableTools): Array<[string, Record<string, unknown>]> {
  const reply = decide(text, tools);
  return reply.type === 'tool-calls' ? reply.calls.map((call) => [call.toolName, call.input]) : [];
}

describe('decideMockReply: tool intents', () => {
  const cases: Array<[string, Array<[string, Record<string, unknown>]>]> = [
    ['今天北京天气怎么样？', [['get_weather', { city: '北京' }]]],
    ['帮我查一下拉萨的天气', [['get_weather', { city: '拉萨' }]]],
    ['拉萨和大理天气怎么样', [['get_weather', { city: '拉萨' }], ['get_weather', { city: '大理' }]]],
    ['weather in new york and london', [['get_weather', { city: 'New York' }], ['get_weather', { city: 'London' }]]],
    ['Is it going to rain in Reykjavik tomorrow?', [['get_weather', { city: 'Reykjavik' }]]],
    ['how cold is it in Moscow', [['get_weather', { city: 'Moscow' }]]],
    ['what is 12.5% of 80', [['calculate', { expression: '12.5% * 80' }]]],
    ['计算 1/0', [['calculate', { expression: '1/0' }]]],
    ['3 乘以 4 是多少', [['calculate', { expression: '3*4' }]]],
    ['３×（４＋５）＝？', [['calculate', { expression: '3*(4+5)' }]]],
    ['sqrt(16)+2', [['calculate', { expression: 'sqrt(16)+2' }]]],
    ['2的10次方是多少', [['calculate', { expression: '2^10' }]]],
    ['what is 2 to the power of 10', [['calculate', { expression: '2^10' }]]],
    ['What time is it in Tokyo?', [['current_time', { timezone: 'Asia/Tokyo' }]]],
    ['今天几号', [['current_time', {}]]],
    ['cat src/model/mock-model.ts', [['read_file', { path: 'src/model/mock-model.ts' }]]],
    ['show me README.md', [['read_file', { path: 'README.md' }]]],
    ['当前目录有哪些文件', [['list_files', {}]]],
    ['list files in src', [['list_files', { path: 'src' }]]],
    ['看看 src/ 下有哪些文件', [['list_files', { path: 'src/' }]]],
    ['写入 hello world 到 notes.txt', [['write_file', { path: 'notes.txt', content: 'hello world' }]]],
    ['create notes.txt with hello there', [['write_file', { path: 'notes.txt', content: 'hello there' }]]],
    ['创建 notes.txt，内容是 你好', [['write_file', { path: 'notes.txt', content: '你好' }]]],
    ['把“今天很开心”保存到 diary.md', [['write_file', { path: 'diary.md', content: '今天很开心' }]]],
    ['把 "1+1=2" 写入 math.txt', [['write_file', { path: 'math.txt', content: '1+1=2' }]]],
  ];
  for (const [text, expected] of cases) {
    test(`${text} → ${expected.map(([name]) => name).join(', ')}`, () => {
      assert.deepEqual(calls(text), expected);
    });
  }

  test('a lone number, a date or a version is not arithmetic', () => {
    assert.deepEqual(calls('42'), []);
    assert.deepEqual(calls('2024-05-01 那天发生了什么'), []);
    assert.deepEqual(calls('node 22.1.0 好用吗'), []);
  });

  test('"today" in a weather question does not also ask for the time', () => {
    assert.deepEqual(calls("What's the weather in London today?"), [['get_weather', { city: 'London' }]]);
  });

  test('a bare follow-up reuses the weather intent of the previous question', () => {
    const history: LanguageModelV4Prompt = [user('北京天气怎么样'), { role: 'assistant', content: [{ type: 'text', text: '北京多云。' }] }];
    const reply = decide('那上海呢？', ALL_TOOLS, history);
    assert.deepEqual(reply, { type: 'tool-calls', calls: [{ toolName: 'get_weather', input: { city: '上海' } }] });
    assert.equal(decide('那上海呢？').type, 'text');
  });

  test('a timezone is passed only when the time tool accepts one', () => {
    const withoutTimezone: AvailableTools = new Map([['current_time', new Set<string>()]]);
    assert.deepEqual(calls('东京现在几点', withoutTimezone), [['current_time', {}]]);
  });
});

describe('decideMockReply: answers', () => {
  test('tool results after the last user message are answered, not re-requested', () => {
    const reply = decideMockReply(
      [
        user('北京天气怎么样'),
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'get_weather', input: { city: '北京' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'get_weather', output: { type: 'json', value: { temperature: 21 } } }] },
      ],
      ALL_TOOLS,
    );
    assert.deepEqual(reply, { type: 'text', text: '北京的天气：{"temperature":21}' });
  });

  test('results in other shapes are still phrased from their own figures', () => {
    const answer = (toolName: string, value: string, text = '北京天气') =>
      decideMockReply(
        [user(text), { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName, output: { type: 'text', value } }] }],
        ALL_TOOLS,
      );
    assert.deepEqual(
      answer('get_weather', 'Beijing (北京), China: Partly cloudy, 21°C (feels like 20°C), humidity 40%, wind 12 km/h NW (sample data, not live)'),
      { type: 'text', text: '北京现在多云，气温 21°C（体感 20°C），湿度 40%，西北风 12 km/h。（示例数据，不是实时天气）' },
    );
    assert.deepEqual(answer('current_time', '2026-11-30 15:04:05 (Monday), Europe/London (UTC+00:00)', 'time in London?'), {
      type: 'text',
      text: "It's 15:04:05 on Monday, 2026-11-30 (Europe/London, UTC+00:00).",
    });
    assert.deepEqual(answer('list_files', 'the workspace root is empty', 'ls'), { type: 'text', text: 'Nothing to list: the workspace root is empty.' });
  });

  test('an error-json result is a failure, and an unknown tool is quoted by name', () => {
    const reply = decideMockReply(
      [
        user('do both'),
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'a', toolName: 'read_file', output: { type: 'error-json', value: { message: 'missing' } } },
            { type: 'tool-result', toolCallId: 'b', toolName: 'search_web', output: { type: 'text', value: 'three hits' } },
          ],
        },
      ],
      ALL_TOOLS,
    );
    assert.deepEqual(reply, { type: 'text', text: 'Sorry, I couldn\'t read the file: {"message":"missing"}\n\nsearch_web returned: three hits' });
  });

  test('weather words without a city ask for one; without tools the mock says what is missing', () => {
    assert.deepEqual(decide("what's the weather like today?"), {
      type: 'text',
      text: 'Which city would you like the weather for? For example: "What\'s the weather in London?"',
    });
    const reply = decide('(2+3)*4 等于多少？', new Map());
    assert.equal(reply.type, 'text');
    assert.match(reply.type === 'text' ? reply.text : '', /calculate 工具/);
  });

  test('thanks get a short reply, not the fallback', () => {
    assert.deepEqual(decide('谢谢！'), { type: 'text', text: '不客气！还有什么想试试的吗？' });
    assert.deepEqual(decide('thanks a lot'), { type: 'text', text: "You're welcome! Anything else you'd like to try?" });
  });

  test('with no tools at all the greeting says so instead of suggesting them', () => {
    const reply = decide('hi', new Map());
    assert.equal(reply.type, 'text');
    assert.match(reply.type === 'text' ? reply.text : '', /No tools are enabled/);
    assert.doesNotMatch(reply.type === 'text' ? reply.text : '', /weather/);
  });

  test('a summary request with nothing before it still starts with the summary heading', () => {
    assert.deepEqual(decide('Summarize the conversation so far.'), {
      type: 'text',
      text: 'Summary of the earlier conversation:\n- Nothing yet.',
    });
  });

  test('a summary handed over as the last message is acknowledged, not acted on', () => {
    assert.deepEqual(decide('Summary of the earlier conversation:\n- User asked: 北京天气怎么样？\n- get_weather(北京): …'), {
      type: 'text',
      text: '好的，我会在这份摘要的基础上继续。',
    });
  });

  test('a new summary keeps the bullets of the previous one', () => {
    const history: LanguageModelV4Prompt = [
      user('Summary of the earlier conversation:\n- User asked: 上海天气怎么样？'),
      { role: 'assistant', content: [{ type: 'text', text: 'OK.' }] },
      user('现在几点'),
    ];
    assert.deepEqual(decide('Summarize the conversation so far', ALL_TOOLS, history), {
      type: 'text',
      text: 'Summary of the earlier conversation:\n- User asked: 上海天气怎么样？\n- User asked: 现在几点',
    });
  });
});
