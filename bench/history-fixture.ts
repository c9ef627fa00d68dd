import type { ModelMessage } from 'ai';

/**
 * Deterministic, realistic chat histories for the context-fitting benchmark: mixed Chinese and English
 * user messages, assistant tool calls with their results (weather, arithmetic, files of a few kB), and
 * text answers, in the shapes the SDK's `responseMessages` produce.
 */

/** One user turn: the user's message, then each model step's messages (assistant, and tool results after a call). */
export interface Turn {
  user: ModelMessage;
  steps: ModelMessage[][];
}

const CHINESE = [
  '北京今天多云，气温二十一度，体感二十度，适合出门散步。',
  '这个函数负责把配置文件解析成一个对象，并逐项检查每个字段是否合法。',
  '如果你想在本地运行，先安装依赖，然后执行构建命令，最后启动服务。',
  '计算结果是二十，因为括号里的二加三等于五，再乘以四。',
  '这段代码的问题在于没有处理空数组的情况，建议在循环前先判断长度。',
  '上海明天有小雨，最高气温二十五度，出门记得带伞。',
  '我读了一下这个文件，它导出了三个函数，分别处理输入、输出和错误。',
  '总的来说，这个方案简单可靠，但在大数据量时可能需要分批处理。',
  '请注意，工作区之外的文件无法读取，这是为了保护你的隐私。',
  '下面是我对这个模块结构的理解，如果有不对的地方请告诉我。',
];

const ENGLISH = [
  'The parser reads the expression from left to right and builds a small syntax tree. ',
  'This module exports a factory so tests can inject a temporary directory and a fake clock. ',
  'Each request is bounded by a timeout, and a failed step ends the turn with a readable message. ',
  'The history keeps whole steps only, so every tool call is followed by exactly one result. ',
  'To fix the build, update the import paths to use the .ts extension and run the compiler again. ',
  'The weather in Tokyo is clear, 18°C, with a light breeze from the south-east. ',
  'I read the file you asked about; the interesting part is the retry loop near the end. ',
  'In short: the change is safe, but it needs a test for the empty-input case. ',
];

const CODE = [
  "import { readFileSync } from 'node:fs';",
  'export function parseConfig(text: string): Config {',
  '  const values = JSON.parse(text) as Record<string, unknown>;',
  "  if (typeof values.name !== 'string') throw new Error('name must be a string');",
  '  // 把缺省值补齐，避免后面到处判断 undefined',
  '  return { ...DEFAULTS, ...values } as Config;',
  '}',
  'for (const entry of entries) total += entry.size;',
  '  await writeFile(join(root, path), content, "utf8");',
  'describe("calculator", () => { test("adds", () => assert.equal(add(2, 3), 5)); });',
];

const CITIES = ['北京', '上海', '广州', '深圳', '杭州', 'Tokyo', 'London', 'New York', '成都', 'Singapore'];
const FILES = ['src/cli.ts', 'package.json', 'README.md', 'src/config/load-config.ts', 'src/agent/loop/turn-options.ts', 'docs/设计说明.md'];

/** mulberry32: a tiny seeded generator, so every run measures the same histories. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Makes turns one after another; the same seed always gives the same turns. */
export class TurnFactory {
  private readonly random: () => number;
  private callCount = 0;

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  next(): Turn {
    const roll = this.random();
    if (roll < 0.3) return this.toolTurn(this.weatherQuestion(), 'get_weather', { city: this.pick(CITIES) }, this.weatherReport(), 80, 260);
    if (roll < 0.45) {
      return this.toolTurn('(2+3)*4 等于多少？顺便解释一下 precedence。', 'calculate', { expression: '(2+3)*4' }, '(2+3)*4 = 20', 60, 200);
    }
    if (roll < 0.65) {
      const path = this.pick(FILES);
      return this.toolTurn(`帮我读一下 ${path}，explain what it does.`, 'read_file', { path }, this.fileWindow(path), 300, 900);
    }
    if (roll < 0.9) return this.chatTurn();
    return this.listThenReadTurn();
  }

  private toolTurn(question: string, toolName: string, input: object, result: string, answerMin: number, answerMax: number): Turn {
    const toolCallId = this.callId();
    return {
      user: { role: 'user', content: question },
      steps: [
        [
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName, output: { type: 'text', value: result } }] },
        ],
        [{ role: 'assistant', content: [{ type: 'text', text: this.prose(this.between(answerMin, answerMax), 0.7) }] }],
      ],
    };
  }

  private chatTurn(): Turn {
    return {
      user: { role: 'user', content: this.prose(this.between(20, 300), 0.5) },
      steps: [[{ role: 'assistant', content: [{ type: 'text', text: this.prose(this.between(200, 1500), 0.5) }] }]],
    };
  }

  private listThenReadTurn(): Turn {
    const listId = this.callId();
    const readId = this.callId();
    const path = this.pick(FILES);
    const listing = Array.from({ length: this.between(15, 60) }, (_, index) => `${this.pick(FILES).replace(/\.\w+$/, '')}-${index}.ts`).join('\n');
    return {
      user: { role: 'user', content: 'What files are in src/? 然后读一下最重要的那个。' },
      steps: [
        [
          {
            role: 'assistant',
            content: [
              { type: 'text', text: '我先列一下文件。' },
              { type: 'tool-call', toolCallId: listId, toolName: 'list_files', input: { path: 'src' } },
            ],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: listId, toolName: 'list_files', output: { type: 'text', value: listing } }] },
        ],
        [
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: readId, toolName: 'read_file', input: { path } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: readId, toolName: 'read_file', output: { type: 'text', value: this.fileWindow(path) } }] },
        ],
        [{ role: 'assistant', content: [{ type: 'text', text: this.prose(this.between(300, 1200), 0.6) }] }],
      ],
    };
  }

  private weatherQuestion(): string {
    const city = this.pick(CITIES);
    return this.random() < 0.6 ? `${city}今天天气怎么样？` : `What's the weather like in ${city} today?`;
  }

  private weatherReport(): string {
    const city = this.pick(CITIES);
    return `${city}: Partly cloudy, ${this.between(-5, 35)}°C (feels like ${this.between(-8, 36)}°C), humidity ${this.between(20, 95)}%, wind ${this.between(0, 40)} km/h NW. Sample data (示例数据), observed ${this.between(1, 59)} minutes ago.`;
  }

  /** A read_file result: a header line and numbered lines, 1.5-8 kB. */
  private fileWindow(path: string): string {
    const target = this.between(1_500, 8_000);
    const lines = [`${path}: lines 1-? of 420 (use offset to read more)`];
    let length = lines[0]?.length ?? 0;
    for (let number = 1; length < target; number++) {
      const line = `${String(number).padStart(4)}  ${this.pick(CODE)}`;
      lines.push(line);
      length += line.length + 1;
    }
    return lines.join('\n');
  }

  /** About `length` characters of sentences, Chinese with probability `chineseShare`, as one flat string. */
  private prose(length: number, chineseShare: number): string {
    const parts: string[] = [];
    let total = 0;
    while (total < length) {
      const sentence = this.random() < chineseShare ? this.pick(CHINESE) : this.pick(ENGLISH);
      parts.push(sentence);
      total += sentence.length;
    }
    return parts.join('');
  }

  private callId(): string {
    this.callCount++;
    return `call_${this.callCount.toString(16).padStart(22, '0')}`;
  }

  private between(low: number, high: number): number {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }
}

/** All messages of a turn, in history order. */
export function turnMessages(turn: Turn): ModelMessage[] {
  return [turn.user, ...turn.steps.flat()];
}

/** A history of whole turns with at least `messageCount` messages (a few more when the last turn overshoots). */
export function buildHistory(messageCount: number, seed: number): ModelMessage[] {
  const factory = new TurnFactory(seed);
  const messages: ModelMessage[] = [];
  while (messages.length < messageCount) messages.push(...turnMessages(factory.next()));
  return messages;
}
