import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { hang, startDashScopeServer, text } from '../helpers/dashscope-server.ts';
import { closeAtEnd } from '../helpers/served.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

// What a newcomer read on their first hour, said plainly: each line as the user sees it.

const KEY = 'sk-sylvan-wording-test-41c2';

const inFolder = (files: Record<string, string>): string => {
  const cwd = tempWorkspace();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(cwd, name, '..'), { recursive: true });
    writeFileSync(join(cwd, name), content);
  }
  return cwd;
};

const runs = {
  modelWithoutValue: runCli({ inProcess: true, args: ['--model'] }),
  jsonWithoutQuestion: runCli({ inProcess: true, args: ['--json'] }),
  noSuchSession: runCli({ inProcess: true, args: ['--resume', 'no-such-id'] }),
  help: runCli({ inProcess: true, args: ['--help'] }),
  badDotenv: runCli({ inProcess: true, cwd: inFolder({ '.env': 'SYLVAN_MAX_STEPS=lots\n' }), stdin: 'hi\n' }),
  mockBanner: runCli({ inProcess: true, cwd: inFolder({ '.sylvan-home/settings.json': '{}' }), stdin: '' }),
  tinyCompact: runCli({ inProcess: true, server: { replies: [text('Hi.'), text(`Summary of the conversation so far: ${'the user greeted the assistant and the assistant answered briefly. '.repeat(8)}`)] }, key: KEY, stdin: 'hello\n/compact\n/sessions\n' }),
  exportOverwrite: (() => {
    const cwd = inFolder({ 'kept.md': 'mine\n', 'replaced.md': 'mine\n' });
    return runCli({ inProcess: true, cwd, stdin: 'hello\n/export kept.md\n\n/export replaced.md\ny\n' }).then((result) => ({ cwd, result }));
  })(),
  customCommandRewind: runCli({ inProcess: true,
    cwd: inFolder({ '.sylvan/commands/status.md': 'Where the work stands:\n!`echo from-the-shell`\nSay what to do next.' }),
    args: ['--yes'],
    stdin: '/status\n/rewind\n\n',
  }),
  stepTimeout: (async () => {
    const server = closeAtEnd(await startDashScopeServer({ replies: [hang({ headers: true })], apiKey: KEY }));
    const env = { SYLVAN_PROVIDER: 'openai', OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL, SYLVAN_MAX_RETRIES: '0' };
    return runCli({ inProcess: true, args: ['-p', '--timeout', '1', 'hi'], env });
  })(),
};

const lines = (output: string) => output.split('\n').filter((line) => line.trim() !== '');

describe('plain wording on the first hour', CLI_TEST_TIMEOUT, () => {
  test('--model with no value names the flag and an example, not the parser\'s text', async () => {
    const result = await runs.modelWithoutValue;
    assert.equal(result.code, 2);
    assert.deepEqual(lines(result.stderr), ['sylvan: --model needs a value, e.g. --model qwen-plus-latest. Run sylvan --help for the options.']);
  });

  test('--json with no question names --json, not a -p the user never typed', async () => {
    const result = await runs.jsonWithoutQuestion;
    assert.equal(result.code, 2);
    assert.deepEqual(lines(result.stderr), ['sylvan: --json got an empty question on stdin: sylvan --json "your question", or pipe it in.']);
  });

  test('--resume with an unknown id: one line and exit 2, no banner before it', async () => {
    const result = await runs.noSuchSession;
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^sylvan: Could not open the session: there is no session "no-such-id" in .*\. See \/sessions or sylvan --resume for the list\.\n$/);
  });

  test('--help is grouped, and -y says it approves commands too', async () => {
    const result = await runs.help;
    assert.equal(result.code, 0);
    const headings = lines(result.stdout).filter((line) => /^[A-Z][\w ]*:$/.test(line));
    assert.deepEqual(headings, ['Start:', 'Model and provider:', 'Approval and safety:', 'Sessions:', 'Print mode:']);
    assert.match(result.stdout, /-y, --yes +approve every tool call \(file writes, commands, MCP\n +tools\) without asking/);
    assert.ok(lines(result.stdout).every((line) => line.length <= 80), 'every line within 80 columns');
  });

  test('a bad value in .env is reported naming .env', async () => {
    const result = await runs.badDotenv;
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^sylvan: SYLVAN_MAX_STEPS \(in \.env in [^)]+\) must be a whole number/);
  });

  test('the banner names the settings file by its path, and offers package.json only where there is one', async () => {
    const result = await runs.mockBanner;
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /\$SYLVAN_HOME/);
    assert.match(result.stdout, /Using settings: \S*\.sylvan-home\/settings\.json/);
    assert.doesNotMatch(result.stdout, /package\.json/);
    assert.match(result.stdout, /^Try: .* · 列出这个文件夹的文件 · !ls · \/help$/m);
  });

  test('/compact on a tiny history leaves it as it was and says why; /sessions counts its 2 messages', async () => {
    const { result } = await runs.tinyCompact;
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /compacted: history/);
    assert.match(result.stdout, /The history \(≈ [\d,]+ tokens\) is already shorter than a summary of it \(≈ [\d,]+\); it was left as it was\./);
    assert.match(result.stdout, / 2 messages /);
  });

  test('/export through a pipe: an empty answer keeps the file, y replaces it', async () => {
    const { cwd, result } = await runs.exportOverwrite;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /kept\.md exists\. Overwrite it\? \[n\] No, keep it \/ \[y\] Yes, overwrite it › \n {2}Not exported\./);
    assert.equal(readFileSync(join(cwd, 'kept.md'), 'utf8'), 'mine\n');
    assert.match(readFileSync(join(cwd, 'replaced.md'), 'utf8'), /hello/);
  });

  test('/rewind lists a custom command with a `!` line as one turn, named as typed', async () => {
    const result = await runs.customCommandRewind;
    assert.equal(result.code, 0, result.stderr);
    const listed = lines(result.stdout.slice(result.stdout.indexOf('Turns of this session:'))).filter((line) => /^\s+\d+\. /.test(line));
    assert.equal(listed.length, 1, listed.join('\n'));
    assert.match(listed[0]!, /1\. \d\d:\d\d {2}\/status /);
  });

  test('a step timeout names "the OpenAI-compatible server" mid-sentence', async () => {
    const result = await runs.stepTimeout;
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /No complete answer from the OpenAI-compatible server within 1 s/);
  });
});
