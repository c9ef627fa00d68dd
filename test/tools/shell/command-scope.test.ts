import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApprovalRequest } from '../../../src/agent/turn-options.ts';
import { approvalScopeOf } from '../../../src/tools/approval-scope.ts';
import { commandPrefix } from '../../../src/tools/shell/command-scope.ts';
import { InteractiveApproval, nonInteractiveApproval } from '../../../src/ui/approval-prompt.ts';
import type { LineReader, ReadResult } from '../../../src/ui/line-reader.ts';

class ScriptedReader implements LineReader {
  readonly prompts: string[] = [];
  readonly history: readonly string[] = [];
  readonly interactive = true;
  constructor(private readonly script: string[]) {}
  async read(prompt: string): Promise<ReadResult> {
    this.prompts.push(prompt);
    const next = this.script.shift();
    assert.ok(next !== undefined, `asked more often than scripted: ${prompt}`);
    return { kind: 'line', line: next };
  }
  close(): void {}
}

const command = (text: string): ApprovalRequest => ({ toolCallId: 'call', toolName: 'run_command', input: { command: text } });

function interactive(answers: string[]) {
  const reader = new ScriptedReader(answers);
  const approval = new InteractiveApproval(
    reader,
    () => {},
    async (request) => ({ summary: `run_command ${(request.input as { command: string }).command}`, preview: '' }),
    false,
    () => {},
  );
  return { approval, reader };
}

describe('the leading words an "always" remembers', () => {
  const cases: [string, string | undefined][] = [
    ['npm test', 'npm test'],
    ['npm test -- --watch', 'npm test'],
    ['git status', 'git status'],
    ['git log --oneline -5', 'git log'],
    ['npm run build', 'npm run build'],
    ['ls -la', 'ls'],
    ['./scripts/check.sh fast', './scripts/check.sh fast'],
    ['npm test && npm publish', undefined],
    ['npm test; rm -rf /', undefined],
    ['npm test | tee log', undefined],
    ['echo `whoami`', undefined],
    ['echo $(whoami)', undefined],
    ['npm test > out.txt', undefined],
    ['sleep 1 &', undefined],
    ['NODE_OPTIONS=--require=x npm test', undefined],
    ['npm test\nnpm publish', undefined],
  ];
  for (const [text, expected] of cases) {
    test(`${JSON.stringify(text)} → ${expected ?? 'asked every time'}`, () => assert.equal(commandPrefix(text), expected));
  }
});

describe('approval of commands', { timeout: 10_000 }, () => {
  test('every command needs approval, scoped by its leading words', () => {
    assert.deepEqual(approvalScopeOf('run_command', { command: 'npm test' }), {
      kind: 'command',
      key: 'command:npm test',
      alwaysLabel: '`npm test …` this session',
    });
  });

  test('"always" for npm test covers npm test --coverage but not npm publish', async () => {
    const { approval, reader } = interactive(['a']);
    assert.equal(approval.decide('run_command', { command: 'npm test' }), 'ask');
    assert.deepEqual(await approval.ask(command('npm test')), { approved: true });
    assert.match(reader.prompts[0] ?? '', /^run_command npm test\? \[y\]es \/ \[n\]o \/ \[a\]lways `npm test …` this session › $/);
    assert.equal(approval.decide('run_command', { command: 'npm test --coverage' }), 'allow');
    assert.equal(approval.decide('run_command', { command: 'npm publish' }), 'ask');
    assert.equal(approval.decide('run_command', { command: 'npm test && npm publish' }), 'ask');
  });

  test('a compound command offers no "always", and "a" does not approve it', async () => {
    const { approval, reader } = interactive(['a', 'y']);
    const request = command('npm test && npm publish');
    assert.deepEqual(await approval.ask(request), { approved: true });
    assert.equal(reader.prompts.length, 2, 'the "a" answer was taken');
    assert.ok(!reader.prompts[0]?.includes('[a]lways'), reader.prompts[0]);
    assert.equal(approval.decide('run_command', { command: 'npm test && npm publish' }), 'ask');
  });

  test('print mode denies a command unless --yes', () => {
    const denied = nonInteractiveApproval(false).decide('run_command', { command: 'npm test' });
    assert.ok(typeof denied === 'object' && /--yes/.test(denied.deny));
    assert.equal(nonInteractiveApproval(true).decide('run_command', { command: 'npm test' }), 'allow');
  });

  test('"always" for an edit covers later edits of that file only', async () => {
    const reader = new ScriptedReader(['a']);
    const approval = new InteractiveApproval(reader, () => {}, async () => ({ summary: 'edit_file a.txt', preview: '' }), false, () => {});
    const edit = (path: string) => ({ path, old_text: 'x', new_text: 'y' });
    await approval.ask({ toolCallId: 'c', toolName: 'edit_file', input: edit('a.txt') });
    assert.match(reader.prompts[0] ?? '', /\[a\]lways edits of a\.txt this session/);
    assert.equal(approval.decide('edit_file', edit('./a.txt')), 'allow');
    assert.equal(approval.decide('edit_file', edit('b.txt')), 'ask');
  });
});
