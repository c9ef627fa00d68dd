import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';

// Issue 22, failures 5 and 6: the files Sylvan reads on its own (settings, .env, instruction files,
// .gitignore) — a FIFO, a device, a 1 GB file, a link out of the workspace or to a secret.

const KEY = 'sk-own-files-test-61c0';
/** A run that blocks or reads for ever is killed well before the test's timeout, and fails. */
const KILL_AFTER_MS = 20_000;

const fifo = (file: string): void => {
  mkdirSync(dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
};

/** `sylvan -p hello` in `cwd` (or the REPL, with `stdin`) against a loopback model answering `replies`. */
const ask = (cwd: string, options: { replies?: Reply[]; stdin?: string; args?: string[] } = {}) =>
  runCli({ server: { replies: options.replies ?? [text('好的，答完了。')] }, key: KEY, cwd, stdin: options.stdin, args: options.args ?? ['-p', 'hello'], killAfterMs: KILL_AFTER_MS });

const systemPrompt = (request: ReturnType<typeof requestAt>): string => String(request.body?.messages?.[0]?.content ?? '');

describe('a FIFO where Sylvan reads a file of its own never blocks start-up (failure 5)', { timeout: 60_000 }, () => {
  it('.sylvan/settings.json as a FIFO: print mode answers and exits, with one line naming the file', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    fifo(join(cwd, '.sylvan', 'settings.json'));
    const { result } = await ask(cwd);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.includes('好的，答完了。'), result.stdout);
    assert.match(result.stderr, /settings\.json was not read: it is a named pipe \(FIFO\), not a regular file/);
  });

  it('$SYLVAN_HOME/settings.json as a FIFO: one line and exit 2 at once (the user counts on its secret patterns), nothing sent', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    fifo(join(cwd, '.sylvan-home', 'settings.json'));
    const { server, result } = await ask(cwd);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /settings\.json: could not be read \(it is a named pipe \(FIFO\), not a regular file\)/);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.equal(server.requests.length, 0);
  });

  it('AGENTS.md as a FIFO: the REPL prints its banner and answers; print mode exits', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    fifo(join(cwd, 'AGENTS.md'));
    const [repl, print] = await Promise.all([ask(cwd, { args: [], stdin: 'hello\n' }), ask(cwd)]);
    assert.equal(repl.result.code, 0, repl.result.stderr);
    assert.match(repl.result.stdout, /Sylvan/);
    assert.ok(repl.result.stdout.includes('好的，答完了。'), repl.result.stdout);
    assert.equal(print.result.code, 0, print.result.stderr);
    assert.match(print.result.stderr, /AGENTS\.md was not read: it is a named pipe/);
  });

  it('.env as a FIFO: print mode answers and exits', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    fifo(join(cwd, '.env'));
    const { result } = await ask(cwd);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /\.env in .* was not read: it is a named pipe/);
  });

  it('a FIFO .gitignore: search_files answers and print mode exits', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    writeFileSync(join(cwd, 'notes.txt'), 'needle here\n');
    fifo(join(cwd, '.gitignore'));
    const { server, result } = await ask(cwd, {
      replies: [toolCalls([{ id: 'call_s', name: 'search_files', arguments: { pattern: 'needle' } }]), text('找到了。')],
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(toolResultText(requestAt(server, 1), 'call_s'), /notes\.txt/);
  });
});

describe('devices and huge files are never read whole (failure 5)', { timeout: 60_000 }, () => {
  it('AGENTS.md → /dev/zero is refused; .gitignore → /dev/zero does not stop a search', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    symlinkSync('/dev/zero', join(cwd, 'AGENTS.md'));
    symlinkSync('/dev/zero', join(cwd, '.gitignore'));
    writeFileSync(join(cwd, 'notes.txt'), 'needle here\n');
    const { server, result } = await ask(cwd, {
      replies: [toolCalls([{ id: 'call_s', name: 'search_files', arguments: { pattern: 'needle' } }]), text('找到了。')],
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /AGENTS\.md was not read: it leads outside the workspace, to \/dev\/zero/);
    assert.match(toolResultText(requestAt(server, 1), 'call_s'), /notes\.txt/);
    assert.ok(!systemPrompt(requestAt(server, 0)).includes('\u0000'));
  });

  it('a 1 GB SYLVAN.md yields its first 12,000 characters quickly, with a note of its size', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    const file = join(cwd, 'SYLVAN.md');
    writeFileSync(file, `Always answer in haiku.\n${'x'.repeat(20_000)}`);
    // Sparse: a gigabyte that costs no disk (and a read of all of it took 26 s).
    execFileSync('truncate', ['-s', '1G', file]);
    const started = Date.now();
    const { server, result } = await ask(cwd);
    const elapsed = Date.now() - started;
    assert.equal(result.code, 0, result.stderr);
    const prompt = systemPrompt(requestAt(server, 0));
    assert.ok(prompt.includes('Always answer in haiku.'));
    assert.match(prompt, /SYLVAN\.md was cut here: it has 1,073,741,824 bytes, only the first 12,000 characters are included/);
    assert.ok(elapsed < KILL_AFTER_MS, `took ${elapsed} ms`);
  });
});

describe('instruction files follow read_file\'s rules: no secret, nothing outside (failure 6)', { timeout: 60_000 }, () => {
  it('AGENTS.md → ../outside/.ssh/id_rsa and SYLVAN.md → .env never reach the system prompt', async () => {
    const base = tempWorkspace('sylvan-own-');
    const cwd = join(base, 'repo');
    const outside = join(base, 'outside', '.ssh');
    mkdirSync(cwd);
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nPRIVATE-KEY-MARKER\n');
    writeFileSync(join(cwd, '.env'), 'DOTENV_SECRET_MARKER=hunter2\n');
    symlinkSync('../outside/.ssh/id_rsa', join(cwd, 'AGENTS.md'));
    symlinkSync('.env', join(cwd, 'SYLVAN.md'));
    const { server, result } = await ask(cwd);
    assert.equal(result.code, 0, result.stderr);
    for (const request of server.requests) {
      const body = JSON.stringify(request.body);
      assert.ok(!body.includes('PRIVATE-KEY-MARKER'), 'the private key was sent');
      assert.ok(!body.includes('DOTENV_SECRET_MARKER'), '.env was sent');
    }
    assert.match(result.stderr, /AGENTS\.md was not read: it leads outside the workspace/);
    assert.match(result.stderr, /SYLVAN\.md was not read: it is a link to \.env, a secret file/);
  });

  it('a link inside the workspace to an ordinary file is still read (CLAUDE.md → AGENTS.md style)', async () => {
    const cwd = tempWorkspace('sylvan-own-');
    mkdirSync(join(cwd, 'docs'));
    writeFileSync(join(cwd, 'docs', 'agents.md'), 'Use tabs, never spaces.\n');
    symlinkSync('docs/agents.md', join(cwd, 'AGENTS.md'));
    const { server, result } = await ask(cwd);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(systemPrompt(requestAt(server, 0)).includes('Use tabs, never spaces.'));
  });
});
