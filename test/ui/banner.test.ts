import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Chalk } from 'chalk';
import type { Config } from '../../src/config/config.ts';
import { bannerLines } from '../../src/ui/repl/banner.ts';
import { displayWidth } from '../../src/shared/text/display-width.ts';
import { helpSections } from '../../src/ui/commands/help-columns.ts';

const plain = new Chalk({ level: 0 });
const mock = { provider: 'mock', model: 'mock', search: { backend: 'sample' }, cwd: process.cwd() } as unknown as Config;
const words = (rows: string[]) => rows.join(' ').split(/\s+/).filter((word) => word !== '' && word !== '·');

describe('the banner', () => {
  test('is wrapped between words and list items at the width, its rest indented; a pipe gets whole lines', () => {
    const whole = bannerLines(mock, '1.2.3', plain);
    assert.equal(whole.length, 4);
    assert.match(whole[2] ?? '', /OPENAI_BASE_URL=http:\/\/localhost:11434\/v1/);
    for (const width of [60, 50, 45]) {
      const rows = bannerLines(mock, '1.2.3', plain, width);
      assert.ok(rows.every((row) => displayWidth(row) <= width), `${width}:\n${rows.join('\n')}`);
      assert.deepEqual(words(rows), words(whole), `no word broken at ${width}:\n${rows.join('\n')}`);
      assert.ok(rows.filter((row) => !/^(Sylvan|No API|A local|Try:)/.test(row)).every((row) => row.startsWith('  ')), rows.join('\n'));
    }
  });

  test('names the model and where it is sent for a real provider', () => {
    const openai = { provider: 'openai', model: 'fake-model', baseURL: 'http://127.0.0.1:9/v1', keyVariable: 'OPENAI_API_KEY' } as unknown as Config;
    const rows = bannerLines(openai, '1.2.3', plain, 60);
    assert.deepEqual(rows, [
      'Sylvan v1.2.3 · fake-model via http://127.0.0.1:9/v1',
      '  /help for commands · Ctrl-C stops an answer',
      "OPENAI_API_KEY is sent to 127.0.0.1:9 (not the provider's",
      "  default)",
    ]);
  });
});

describe('/help columns', () => {
  const rows = [['/think [on|off|budget N]', 'thinking for hybrid Qwen3 models'], ['/help', 'this list']] as const;

  test('descriptions start in one column after the widest name and wrap under it', () => {
    assert.deepEqual(helpSections([rows], 60)[0], [
      '  /think [on|off|budget N]  thinking for hybrid Qwen3',
      '                            models',
      '  /help                     this list',
    ]);
    assert.deepEqual(helpSections([rows], undefined)[0], ['  /think [on|off|budget N]  thinking for hybrid Qwen3 models', '  /help                     this list']);
  });

  test('on a narrow terminal a long name stands alone, its description on the next row in the column', () => {
    const [lines = []] = helpSections([rows], 36);
    assert.ok(lines.every((line) => displayWidth(line) < 36), lines.join('\n'));
    assert.equal(lines[0], '  /think [on|off|budget N]');
    assert.match(lines[1] ?? '', /^ {15}thinking for/);
    assert.match(lines.at(-1) ?? '', /^ {2}\/help {8}this list$/);
  });
});
