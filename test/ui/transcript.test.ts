import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelMessage } from 'ai';
import { Chalk } from 'chalk';
import { INTERRUPTED_TOOL_RESULT_TEXT } from '../../src/agent/context/history-repair.ts';
import { transcriptLines } from '../../src/ui/render/transcript.ts';

const plain = { colour: new Chalk({ level: 0 }), width: 79, columns: 80, hyperlinks: false };

const history: ModelMessage[] = [
  { role: 'user', content: 'summarise @notes.md\n\n<file path="notes.md">\n# secret notes\n</file>' },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'thinking hard' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'notes.md' } },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'write_file', input: { path: 'x.txt', content: 'x' } },
      { type: 'tool-call', toolCallId: 'c3', toolName: 'run_command', input: { command: 'ls' } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'line 1\nline 2\nline 3' } },
      { type: 'tool-result', toolCallId: 'c2', toolName: 'write_file', output: { type: 'execution-denied', reason: 'not now' } },
      { type: 'tool-result', toolCallId: 'c3', toolName: 'run_command', output: { type: 'error-text', value: INTERRUPTED_TOOL_RESULT_TEXT } },
    ],
  },
  { role: 'assistant', content: 'The notes say **hello**:\n\n1. first\n2. second\n\n\x1b[2Jdone' },
  { role: 'user', content: 'a long line\nand a second' },
];

test('a saved conversation drawn as the terminal showed it: the typed lines, answers rendered, calls as summaries, no reasoning', async () => {
  const lines = await transcriptLines(history, plain);
  assert.deepEqual(lines, [
    '› summarise @notes.md',
    '  attached notes.md',
    'Reading it.',
    '',
    '✓ read_file(path: "notes.md")',
    '  ⎿ line 1 (+2 lines)',
    '✗ write_file(path: "x.txt", content: "x")',
    '  ⎿ denied: not now',
    '✗ run_command(command: "ls")',
    '  ⎿ interrupted',
    '',
    'The notes say hello:',
    '',
    '1. first',
    '2. second',
    '',
    '␛[2Jdone',
    '',
    '› a long line',
    '  and a second',
  ]);
  assert.ok(!lines.join('\n').includes('\x1b'), 'nothing from the file reaches the terminal unsanitised');
  assert.ok(!lines.join('\n').includes('thinking hard'));
});

test('a long session shows its last turns under a line counting the rest', async () => {
  const long: ModelMessage[] = Array.from({ length: 25 }, (_, index): ModelMessage[] => [
    { role: 'user', content: `question ${index + 1}` },
    { role: 'assistant', content: `answer ${index + 1}` },
  ]).flat();
  const lines = await transcriptLines(long, plain);
  assert.equal(lines[0], '… 5 earlier turns not shown');
  assert.equal(lines[1], '› question 6');
  assert.equal(lines.filter((line) => line.startsWith('› ')).length, 20);
  assert.equal(lines.at(-1), 'answer 25');
  assert.deepEqual((await transcriptLines(long, { ...plain, turns: 1 })).slice(0, 2), ['… 24 earlier turns not shown', '› question 25']);
});

test('after /compact, the summary is named, not shown', async () => {
  const lines = await transcriptLines(
    [
      { role: 'user', content: 'Summary of the earlier conversation:\nthey asked about Beijing.' },
      { role: 'assistant', content: 'Understood.' },
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: 'Now this.' },
    ],
    plain,
  );
  assert.deepEqual(lines, ['(earlier turns were summarised by /compact)', '› and now?', 'Now this.']);
});

test("control characters in the user's own saved message, and in the names of files attached under it, are shown as symbols", async () => {
  const typed = 'look \x1b[2J\x1b]0;title\x07here\u009b31m @evil';
  const name = 'evil\x1b[31m\x08.md';
  const lines = await transcriptLines([{ role: 'user', content: `${typed}\n\n<file path="${name}">\nbody\n</file>` }], plain);
  const screen = lines.join('\n');
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(screen), JSON.stringify(screen));
  assert.match(lines[0] ?? '', /^› look ␛\[2J␛\]0;title␇here.*31m @evil$/);
  assert.match(lines.at(-1) ?? '', /^ {2}attached evil␛\[31m.*\.md$/);
});
