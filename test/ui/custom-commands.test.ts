import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { Conversation } from '../../src/agent/context/conversation.ts';
import { redactSecrets } from '../../src/shared/redact-secrets.ts';
import type { ApprovalPolicy, ApprovalRequest } from '../../src/agent/loop/turn-options.ts';
import type { CustomCommand } from '../../src/prompt-files/custom-command.ts';
import type { Config } from '../../src/config/config.ts';
import type { ModelControl, SessionControl, ShellLines } from '../../src/runtime/runtime.ts';
import { printApproval } from '../helpers/approval-policies.ts';
import { shellLineRunner, type ShellLineContext } from '../../src/ui/state/command-shell-lines.ts';
import { copyCommand, lastAnswer, MAX_COPY_BYTES, osc52 } from '../../src/ui/commands/copy-command.ts';
import { prepareCommandTurn } from '../../src/ui/state/command-turn.ts';
import { commandSummaries } from '../../src/ui/commands/prompt-file-commands.ts';
import { exportCommand } from '../../src/ui/commands/export-command.ts';
import type { CommandState } from '../../src/ui/state/repl-state.ts';
import { chalkFor } from '../../src/ui/render/render.ts';

const workspace = mkdtempSync(join(tmpdir(), 'sylvan-custom-ui-'));
after(() => rmSync(workspace, { recursive: true, force: true }));
const KEY = 'sk-test-export-4f1c9a7e20';
const plain = chalkFor({ write: () => true, isTTY: false }, {});

/** A runtime whose shell records each command and answers like run_command. */
function fakeShell() {
  const calls: { command: string; checkpointLabel?: string }[] = [];
  const runtime: Pick<ShellLines, 'runShellLine'> = {
    async runShellLine(command, options) {
      calls.push({ command, ...(options.checkpointLabel !== undefined && { checkpointLabel: options.checkpointLabel }) });
      return { ok: true, output: `exit code 0 (0.0 s)\nstdout:\n${command.replace(/^echo /, '')}` };
    },
  };
  return { runtime, calls };
}

function shellContext(policy: ApprovalPolicy, runtime: Pick<ShellLines, 'runShellLine'>, told: string[] = [], mode: ShellLineContext['mode'] = 'ask'): ShellLineContext {
  return {
    policy,
    runtime,
    mode,
    cannotAsk: 'print mode cannot ask; rerun with --yes',
    interruptible: (work) => work(new AbortController().signal),
    tell: (line) => told.push(line),
    label: '/check',
  };
}

/** A policy that asks, answering `approved`, and remembers what it was asked. */
function askingPolicy(approved: boolean): ApprovalPolicy & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    decide: () => 'ask',
    async ask(request) {
      asked.push(request);
      return { approved };
    },
  };
}

describe("a custom command's !`command` lines", () => {
  test('without anyone to ask and without --yes, the command is not run and the reason says how to allow it', async () => {
    const { runtime, calls } = fakeShell();
    const run = shellLineRunner(shellContext(printApproval(false), runtime));
    assert.deepEqual(await run('git status'), { ok: false, reason: '!`git status` was not run: print mode cannot ask; rerun with --yes' });
    assert.deepEqual(calls, []);
  });

  test('in plan mode no command runs, even with --yes', async () => {
    const { runtime, calls } = fakeShell();
    const plan = printApproval(true, { modes: { mode: () => 'plan', workspaceRoot: workspace } });
    const run = shellLineRunner(shellContext(plan, runtime, [], 'plan'));
    assert.deepEqual(await run('ls'), { ok: false, reason: '!`ls` was not run: plan mode runs no commands (Shift+Tab or /mode switches it)' });
    assert.deepEqual(calls, []);
  });

  test("each is asked as run_command, like a model's call; a no stops it, a yes runs it (the first one starting a checkpoint turn)", async () => {
    const refusing = askingPolicy(false);
    const refused = fakeShell();
    assert.deepEqual(await shellLineRunner(shellContext(refusing, refused.runtime))('rm -rf build'), { ok: false, reason: '!`rm -rf build` was not approved' });
    assert.deepEqual(refusing.asked.map(({ toolName, input }) => ({ toolName, input })), [{ toolName: 'run_command', input: { command: 'rm -rf build' } }]);
    assert.deepEqual(refused.calls, []);

    const approving = askingPolicy(true);
    const approved = fakeShell();
    const told: string[] = [];
    const run = shellLineRunner(shellContext(approving, approved.runtime, told));
    assert.deepEqual(await run('echo one'), { ok: true, output: 'exit code 0 (0.0 s)\nstdout:\none' });
    await run('echo two');
    assert.deepEqual(approved.calls, [{ command: 'echo one', checkpointLabel: '/check' }, { command: 'echo two' }]);
    assert.deepEqual(told, ['ran !`echo one`: exit code 0 (0.0 s)', 'ran !`echo two`: exit code 0 (0.0 s)']);
  });
});

describe('a custom command as a turn', () => {
  const review: CustomCommand = {
    name: 'review',
    source: 'project',
    file: '.sylvan/commands/review.md',
    description: 'review a file\x1b[2J',
    argumentHint: '<file>',
    model: 'qwen-flash',
    body: 'Review @$1 with the status:\n!`echo clean`',
  };
  writeFileSync(join(workspace, 'a.ts'), 'export const a = 1;\n');

  test('arguments, the approved command output and the @file go into the prompt; the model is for this turn', async () => {
    const { runtime } = fakeShell();
    const notes: string[] = [];
    const turn = await prepareCommandTurn(review, 'a.ts', {
      policy: printApproval(true),
      runtime,
      mode: 'ask',
      cannotAsk: 'no one to ask',
      interruptible: (work) => work(new AbortController().signal),
      workspaceRoot: workspace,
      secretPatterns: [],
      provider: 'dashscope',
      model: 'qwen-plus',
      print: (line) => notes.push(line),
      colour: plain,
    });
    assert.deepEqual(turn, {
      send: 'Review @a.ts with the status:\n```console\n$ echo clean\nexit code 0 (0.0 s)\nstdout:\nclean\n```\n\n<file path="a.ts">\nexport const a = 1;\n\n</file>',
      model: 'qwen-flash',
    });
    assert.deepEqual(notes, ['  /review · .sylvan/commands/review.md · model qwen-flash for this turn', '  ran !`echo clean`: exit code 0 (0.0 s)', '  attached a.ts']);
  });

  test('a command not sent says why in one line and gives no turn; the mock provider keeps its one model', async () => {
    const { runtime } = fakeShell();
    const notes: string[] = [];
    const turn = await prepareCommandTurn(review, 'a.ts', {
      policy: printApproval(false),
      runtime,
      mode: 'ask',
      cannotAsk: 'print mode cannot ask; rerun with --yes',
      interruptible: (work) => work(new AbortController().signal),
      workspaceRoot: workspace,
      secretPatterns: [],
      provider: 'mock',
      model: 'mock',
      print: (line) => notes.push(line),
      colour: plain,
    });
    assert.equal(turn, undefined);
    assert.deepEqual(notes, [
      '  /review · .sylvan/commands/review.md',
      '  (the mock provider has one model: model qwen-flash is not used)',
      '  ✗ /review was not sent: !`echo clean` was not run: print mode cannot ask; rerun with --yes',
    ]);
  });

  test("a picture the prompt names goes with the command's own model when it sees pictures, and keeps the command back when not", async () => {
    writeFileSync(join(workspace, 'shot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    const look: CustomCommand = { ...review, name: 'look', body: 'What is in @shot.png?', model: 'qwen3-vl-plus' };
    const context = (lines: string[]) => ({
      policy: printApproval(false),
      runtime: fakeShell().runtime,
      mode: 'ask' as const,
      cannotAsk: 'no one to ask',
      interruptible: <T>(work: (signal: AbortSignal) => Promise<T>) => work(new AbortController().signal),
      workspaceRoot: workspace,
      secretPatterns: [],
      provider: 'dashscope' as const,
      model: 'qwen-plus',
      print: (line: string) => lines.push(line),
      colour: plain,
    });
    const seen = await prepareCommandTurn(look, '', context([]));
    assert.deepEqual(seen && { send: seen.send, model: seen.model, images: seen.images?.map((image) => image.name) }, {
      send: 'What is in @shot.png?',
      model: 'qwen3-vl-plus',
      images: ['shot.png'],
    });
    const lines: string[] = [];
    assert.equal(await prepareCommandTurn({ ...look, model: undefined }, '', context(lines)), undefined);
    assert.match(lines.at(-2) ?? '', /qwen-plus cannot see images.* Not sent\.$/);
    assert.equal(lines.at(-1), '  ✗ /look was not sent: a picture it names cannot go with it');
  });

  test('the / menu lists each with where it came from, sanitised', () => {
    const user: CustomCommand = { ...review, name: 'fix', source: 'user', file: '$SYLVAN_HOME/commands/fix.md', description: 'my fix', overridesProject: true };
    assert.deepEqual(commandSummaries({ commands: [user, review], notes: [] }), [
      { name: '/fix', summary: "my fix (user, over the project's)" },
      { name: '/review', summary: 'review a file␛[2J (project)' },
    ]);
  });
});

/** The parts of the REPL state /export and /copy read, around `messages`. */
function replState(messages: ModelMessage[], options: { answers?: string[]; terminal?: string[] } = {}) {
  const printed: string[] = [];
  const answers = options.answers ?? [];
  const runtime: Pick<SessionControl, 'conversation' | 'sessionId' | 'redact'> & Pick<ModelControl, 'model'> = {
    conversation: new Conversation(messages),
    sessionId: 'session-7',
    model: 'qwen-plus',
    redact: (text) => redactSecrets(text, [KEY]),
  };
  const state = {
    config: { cwd: workspace, secretPatterns: [], secrets: [KEY] } as unknown as Config,
    runtime,
    print: (line = '') => printed.push(line),
    dim: (text: string) => text,
    ask: async () => answers.shift(),
    ...(options.terminal && { writeTerminal: (bytes: string) => options.terminal!.push(bytes) }),
  } as unknown as CommandState<typeof runtime>;
  return { state, printed };
}

const session: ModelMessage[] = [
  { role: 'user', content: 'Read notes.txt' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: 'notes.txt', note: `key ${KEY}` } },
    ],
  },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'read_file', output: { type: 'text', value: `1\tapi_key=${KEY}\n2\t\x1b]52;c;ZXZpbA==\x07` } }],
  },
  { role: 'assistant', content: [{ type: 'text', text: `The file holds a key (${KEY}).` }] },
];

describe('/export', () => {
  test('writes the turns as Markdown, tool calls and results folded, keys redacted and control characters made visible; says where', async () => {
    const { state, printed } = replState(session);
    await exportCommand('', state);
    assert.deepEqual(printed, ['  Exported 1 turn to sylvan-session-session-7.md']);
    const markdown = readFileSync(join(workspace, 'sylvan-session-session-7.md'), 'utf8');
    assert.equal(markdown.includes(KEY), false, 'a key in the export');
    assert.equal(markdown.includes('\x1b'), false, 'an escape in the export');
    assert.match(markdown, /^# Sylvan session session-7\n/);
    assert.match(markdown, /## You\n\nRead notes\.txt\n\n## Sylvan\n\nReading it\.\n\n<details><summary>⏺ read_file\(path: "notes\.txt", note: "key \[redacted\]"\)<\/summary>\n/);
    assert.match(markdown, /Result:\n\n```\n1\tapi_key=\[redacted\]\n2\t␛\]52;c;ZXZpbA==␇\n```\n\n<\/details>\n\nThe file holds a key \(\[redacted\]\)\.\n$/);
  });

  test('never overwrites without asking: the default name moves on, a named file is replaced only on yes; a path out of the workspace is refused', async () => {
    await exportCommand('', replState(session).state);
    assert.equal(existsSync(join(workspace, 'sylvan-session-session-7-2.md')), true);

    writeFileSync(join(workspace, 'mine.md'), 'my notes\n');
    const refused = replState(session, { answers: ['n'] });
    await exportCommand('mine.md', refused.state);
    assert.deepEqual(refused.printed, ['  Not exported.']);
    assert.equal(readFileSync(join(workspace, 'mine.md'), 'utf8'), 'my notes\n');
    const agreed = replState(session, { answers: ['y'] });
    await exportCommand('mine.md', agreed.state);
    assert.match(readFileSync(join(workspace, 'mine.md'), 'utf8'), /^# Sylvan session/);

    const outside = replState(session);
    await exportCommand('../elsewhere.md', outside.state);
    assert.match(outside.printed[0] ?? '', /^ {2}Not exported: path \.\.\/elsewhere\.md is outside the workspace/);
    const empty = replState([]);
    await exportCommand('', empty.state);
    assert.deepEqual(empty.printed, ['  Nothing to export yet.']);
  });
});

describe('/copy', () => {
  test('writes the last answer as OSC 52, control characters from the model made visible first', () => {
    const written: string[] = [];
    const messages: ModelMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'old answer' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: [{ type: 'text', text: 'Step one.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done \x1b]52;c;ZXZpbA==\x07 here.' }] },
    ];
    assert.equal(lastAnswer(messages), 'Step one.\n\nDone \x1b]52;c;ZXZpbA==\x07 here.');
    const { state, printed } = replState(messages, { terminal: written });
    copyCommand(state);
    assert.deepEqual(written, [osc52('Step one.\n\nDone ␛]52;c;ZXZpbA==␇ here.')]);
    assert.match(written[0]!, /^\x1b\]52;c;[A-Za-z0-9+/=]+\x07$/);
    assert.equal(printed[0], '  Copied the last answer (38 characters) to the clipboard.');
  });

  test('off a terminal, past the bound or before any answer it says so and writes nothing', () => {
    const pipe = replState([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }]);
    copyCommand(pipe.state);
    assert.deepEqual(pipe.printed, ['  /copy needs a terminal: the output is not one. /export writes the session to a file.']);
    const written: string[] = [];
    const big = replState([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'x'.repeat(MAX_COPY_BYTES + 1) }], { terminal: written });
    copyCommand(big.state);
    assert.deepEqual(written, []);
    assert.deepEqual(big.printed, ['  The last answer is 101 kB; /copy sends at most 100 kB. /export writes the session to a file.']);
    const none = replState([], { terminal: written });
    copyCommand(none.state);
    assert.deepEqual(none.printed, ['  No answer to copy yet.']);
  });
});
