import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { text } from '../helpers/dashscope-server.ts';
import { runCli } from '../helpers/cli.ts';

const KEY = 'sk-sylvan-print-output-test';
const ANSWER = '# Title\n\nSome **bold** text and `code`.\n\n| 城市 | 天气 |\n| --- | --- |\n| 北京 | 晴 |\n\nBell\u0007 clip\u001b]52;c;ZXZpbA==\u0007 title\u001b]0;x\u0007 clear\u001b[2J end.';

describe('print mode output', { timeout: 60_000 }, () => {
  test('sylvan -p --json: one JSON object per line, reasoning as its own events, turn-end last', { timeout: 30_000 }, async () => {
    const result = await runCli({ inProcess: true, args: ['-p', '--json', 'think: what is 2+2?'] });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { type: string; text?: string });
    const reasoning = events.filter((event) => event.type === 'reasoning-delta');
    assert.ok(reasoning.length > 1, 'reasoning streamed as several events');
    assert.match(reasoning.map((event) => event.text).join(''), /The user asked me to think first/);
    assert.ok(
      events.findIndex((event) => event.type === 'reasoning-delta') < events.findIndex((event) => event.type === 'text-delta'),
      'reasoning comes before the answer',
    );
    assert.equal(events.at(-1)?.type, 'turn-end');
    assert.equal(events.filter((event) => event.type === 'turn-end').length, 1);
  });

  test('sylvan -p "…" | cat: the answer exactly as it came, sanitised, no markdown rendering, no escape codes', { timeout: 30_000 }, async () => {
    const { result } = await runCli({ inProcess: true, server: { replies: [text(ANSWER, { chunkSize: 4 })] }, key: KEY, args: ['-p', 'show me'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.includes('\u001b'), false, 'no escape byte on stdout');
    assert.equal(result.stderr.includes('\u001b'), false, 'no escape byte on stderr');
    assert.equal(result.stdout.includes('\u0007'), false, 'no bell on stdout');
    const expected = ANSWER.replace(/\u0007/g, '␇').replace(/\u001b/g, '␛');
    assert.equal(result.stdout, `${expected}\n`);
  });
});
