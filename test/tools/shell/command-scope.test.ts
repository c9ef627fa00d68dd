import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApprovalRequest } from '../../../src/agent/loop/turn-options.ts';
import { runCommandSpec } from '../../../src/tools/shell/run-command-spec.ts';
import { alwaysCovers, commandPrefix, pointingWord } from '../../../src/tools/shell/command-scope.ts';
import { printApproval, terminalApproval } from '../../helpers/approval-policies.ts';
import { ScriptedReader, typedLines } from '../../helpers/scripted-reader.ts';

const command = (text: string): ApprovalRequest => ({ toolCallId: 'call', toolName: 'run_command', input: { command: text } });

function interactive(answers: string[]) {
  const reader = new ScriptedReader(typedLines(...answers));
  const approval = terminalApproval({
    reader,
    show: () => {},
    describe: async (request) => ({ summary: `run_command ${(request.input as { command: string }).command}`, preview: '' }),
    onInterrupt: () => {},
  });
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
    assert.deepEqual(runCommandSpec.scope!({ command: 'npm test' }), {
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
    const denied = printApproval(false).decide('run_command', { command: 'npm test' });
    assert.ok(typeof denied === 'object' && /--yes/.test(denied.deny));
    assert.equal(printApproval(true).decide('run_command', { command: 'npm test' }), 'allow');
  });

  test('"always" for an edit covers later edits of that file only', async () => {
    const reader = new ScriptedReader(typedLines('a'));
    const approval = terminalApproval({ reader, show: () => {}, describe: async () => ({ summary: 'edit_file a.txt', preview: '' }), onInterrupt: () => {} });
    const edit = (path: string) => ({ path, old_text: 'x', new_text: 'y' });
    await approval.ask({ toolCallId: 'c', toolName: 'edit_file', input: edit('a.txt') });
    assert.match(reader.prompts[0] ?? '', /\[a\]lways edits of a\.txt this session/);
    assert.equal(approval.decide('edit_file', edit('./a.txt')), 'allow');
    assert.equal(approval.decide('edit_file', edit('b.txt')), 'ask');
  });
});

// Failure 2 of issue 22: with `command:npm test` approved, `npm test --prefix /elsewhere` ran another
// package's script, and `git log --output=/outside/file` wrote outside the workspace, unasked.
describe('"always" covers only options known to be harmless', { timeout: 10_000 }, () => {
  const workspace = '/work/project';
  const asksAgain = [
    'npm test --prefix /elsewhere',
    'npm test --prefix=/elsewhere',
    'npm test "--prefix" /elsewhere',
    'npm test --pre""fix /elsewhere',
    'git log --output=/outside/file',
    'git log --oneline --output /outside/file',
    'git -C ../other log',
    'git log --git-dir=/other/.git',
    'git status --work-tree=/',
    'npm test --script-shell ./evil.sh',
    'git rebase --exec ./x.sh',
    'npm test -g',
    'npm test $HOME',
    'npm test ~/elsewhere',
    'npm test {--prefix,/elsewhere}',
    'npm test /etc/passwd',
    'npm test ../outside/file',
    'npm test --reporter=/tmp/reporter.js',
  ];
  for (const text of asksAgain) {
    test(`${JSON.stringify(text)} is asked again`, () => {
      assert.notEqual(pointingWord(text, workspace), undefined);
      assert.deepEqual(runCommandSpec.scope!({ command: text }), {
        kind: 'command',
        key: `command-once:${text}`,
        alwaysLabel: '',
        oneTime: true,
      });
    });
  }

  const covered = ['npm test --coverage', 'git log --oneline -5', 'git log HEAD~1', 'git log @{u}..', 'ls -la src', 'npm test -- --watch', `npm test ${workspace}/src/a.test.ts`];
  for (const text of covered) {
    test(`${JSON.stringify(text)} stays covered`, () => assert.equal(pointingWord(text, workspace), undefined));
  }

  test('after "always" for npm test, --prefix /elsewhere and git log --output=… are asked', async () => {
    const { approval } = interactive(['a', 'a']);
    await approval.ask(command('npm test'));
    await approval.ask(command('git log'));
    assert.equal(approval.decide('run_command', { command: 'npm test --coverage' }), 'allow');
    assert.equal(approval.decide('run_command', { command: 'npm test --prefix /elsewhere' }), 'ask');
    assert.equal(approval.decide('run_command', { command: 'git log --output=/outside/file' }), 'ask');
  });

  test('settings that approve npm test ahead do not approve it with --prefix', () => {
    const policy = printApproval(false, { approvedAhead: ['command:npm test'] });
    assert.equal(policy.decide('run_command', { command: 'npm test' }), 'allow');
    assert.equal(typeof policy.decide('run_command', { command: 'npm test --prefix /elsewhere' }), 'object');
  });

  test('the prompt can say what "always" covers', () => {
    assert.match(alwaysCovers('npm test --coverage', workspace), /^`npm test` with options that stay in the workspace, for this session; an option that points elsewhere .* asks again$/);
    assert.match(alwaysCovers('npm test --prefix /elsewhere', workspace), /^nothing: --prefix points outside/);
    assert.match(alwaysCovers('npm test && npm publish', workspace), /^nothing: a command that chains/);
  });
});

describe('"run with network" at the approval', { timeout: 10_000 }, () => {
  const offered = (grants: string[], offer = true) => {
    const reader = new ScriptedReader(typedLines('w'));
    const approval = terminalApproval({
      reader,
      show: () => {},
      describe: async () => ({ summary: 'run_command curl example.com', preview: '' }),
      onInterrupt: () => {},
      network: { offered: () => offer, grant: (request) => grants.push(request.toolCallId) },
    });
    return { approval, reader };
  };

  test('is offered when the sandbox has no network, and grants that one call', async () => {
    const grants: string[] = [];
    const { approval, reader } = offered(grants);
    assert.deepEqual(await approval.ask({ toolCallId: 'call-net', toolName: 'run_command', input: { command: 'curl example.com' } }), { approved: true });
    assert.match(reader.prompts[0] ?? '', / \/ \[w\]ith network › $/);
    assert.deepEqual(grants, ['call-net']);
    assert.equal(approval.decide('run_command', { command: 'curl example.com' }), 'ask', '"w" is no "always"');
  });

  test('is not offered otherwise, and "w" is then no answer', async () => {
    const grants: string[] = [];
    const reader = new ScriptedReader(typedLines('w', 'y'));
    const approval = terminalApproval({
      reader,
      show: () => {},
      describe: async () => ({ summary: 'run_command ls', preview: '' }),
      onInterrupt: () => {},
      network: { offered: () => false, grant: (request) => grants.push(request.toolCallId) },
    });
    assert.deepEqual(await approval.ask(command('ls')), { approved: true });
    assert.equal(reader.prompts.length, 2);
    assert.ok(!reader.prompts[0]?.includes('[w]ith network'));
    assert.deepEqual(grants, []);
  });
});

