import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls } from '../helpers/dashscope-server.ts';

// Each event of issue 36 through the CLI against the scripted loopback model, with the hooks
// written as small shell scripts in the workspace. In process (test/helpers/cli.ts), but for the two
// where the process itself is the point: the environment a hook inherits, a command fenced by bubblewrap.

const KEY = 'sk-hooks-events-7c1d';
const sandbox = probeSandbox();
// Outside /tmp: the sandbox's /tmp is private, so a write there would never show on the host anyway.
const outside = mkdtempSync(join('/var/tmp', 'sylvan-hooks-outside-'));
after(() => rmSync(outside, { recursive: true, force: true }));

/** A workspace whose user settings ($SYLVAN_HOME/settings.json) hold `hooks`, with `scripts` as executable files. */
function workspaceWith(hooks: object, scripts: Record<string, string>, where: 'user' | 'project' = 'user'): string {
  const cwd = tempWorkspace('sylvan-hooks-');
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(cwd, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(cwd, name), 0o755);
  }
  const folder = where === 'user' ? join(cwd, '.sylvan-home') : join(cwd, '.sylvan');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'settings.json'), JSON.stringify({ hooks }, null, 2));
  return cwd;
}

const command = (name: string, timeout?: number) => ({ type: 'command', command: `"$SYLVAN_PROJECT_DIR"/${name}`, ...(timeout && { timeout }) });
const runCommand = (id: string, line: string) => toolCalls([{ id, name: 'run_command', arguments: { command: line } }]);

/** The session file's hook entries. */
function hookEntries(cwd: string): { event: string; blocked?: string; permission?: string }[] {
  const folder = join(cwd, '.sylvan-home', 'sessions');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(folder, name), 'utf8').trim().split('\n'))
    .map((line) => JSON.parse(line) as { type: string; event: string })
    .filter((entry) => entry.type === 'hook');
}

describe('hooks at the points of the loop', { timeout: 120_000 }, () => {
  test('a PreToolUse hook that exits 2 blocks the command, and the model reads its reason', async () => {
    const cwd = workspaceWith({ PreToolUse: [{ matcher: 'run_command', hooks: [command('guard.sh')] }] }, {
      'guard.sh': 'cat > "$SYLVAN_PROJECT_DIR/pre-input.json"\necho "rm is not allowed here" >&2\nexit 2',
    });
    const { result, server } = await runCli({ inProcess: true, server: { replies: [runCommand('call_rm', 'touch ran.txt'), text('Understood.')] }, key: KEY, cwd, args: ['--yes', '-p', 'clean up'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(cwd, 'ran.txt')), false, 'the command did not run');
    assert.match(toolResultText(requestAt(server, 1), 'call_rm'), /A PreToolUse hook blocked this call: rm is not allowed here/);
    assert.match(result.stderr, /denied: A PreToolUse hook blocked this call: rm is not allowed here/, 'print mode says why');
    const input = JSON.parse(readFileSync(join(cwd, 'pre-input.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.equal(input.tool_name, 'run_command');
    assert.deepEqual(input.tool_input, { command: 'touch ran.txt' });
    assert.equal(input.tool_use_id, 'call_rm');
    assert.equal(input.cwd, cwd);
    assert.equal(input.permission_mode, 'bypassPermissions');
    assert.ok(typeof input.session_id === 'string' && typeof input.transcript_path === 'string');
    assert.deepEqual(hookEntries(cwd).filter((entry) => entry.event === 'PreToolUse').map((entry) => entry.blocked), ['rm is not allowed here']);
  });

  test("a hook file written for Claude Code works unchanged: matcher Bash, CLAUDE_PROJECT_DIR, JSON permissionDecision", async () => {
    const cwd = tempWorkspace('sylvan-hooks-');
    // As in Claude Code's documentation: a script under .claude/hooks, the JSON contract on stdout.
    mkdirSync(join(cwd, '.claude', 'hooks'), { recursive: true });
    writeFileSync(
      join(cwd, '.claude', 'hooks', 'block-rm.sh'),
      [
        '#!/bin/bash',
        'input=$(cat)',
        'if echo "$input" | grep -q \'"command":"rm \'; then',
        '  echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Destructive command blocked by hook"}}\'',
        'fi',
        'exit 0',
      ].join('\n'),
    );
    chmodSync(join(cwd, '.claude', 'hooks', 'block-rm.sh'), 0o755);
    mkdirSync(join(cwd, '.sylvan-home'));
    writeFileSync(
      join(cwd, '.sylvan-home', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh' }] }] } }),
    );
    writeFileSync(join(cwd, 'keep.txt'), 'kept\n');
    const replies = [toolCalls([{ id: 'call_rm', name: 'run_command', arguments: { command: 'rm keep.txt' } }, { id: 'call_ls', name: 'run_command', arguments: { command: 'echo listed > ls.txt' } }]), text('ok')];
    const { result, server } = await runCli({ inProcess: true, server: { replies }, key: KEY, cwd, args: ['--yes', '-p', 'tidy'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(cwd, 'keep.txt'), 'utf8'), 'kept\n', 'the rm was denied');
    assert.equal(readFileSync(join(cwd, 'ls.txt'), 'utf8'), 'listed\n', 'the other command ran');
    assert.match(toolResultText(requestAt(server, 1), 'call_rm'), /Destructive command blocked by hook/);
  });

  test('updatedInput changes what runs', async () => {
    const cwd = workspaceWith({ PreToolUse: [{ matcher: 'run_command', hooks: [command('rewrite.sh')] }] }, {
      'rewrite.sh': 'cat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten > out.txt"}}}\'',
    });
    const { result } = await runCli({ inProcess: true, server: { replies: [runCommand('call_1', 'echo original > out.txt'), text('done')] }, key: KEY, cwd, args: ['--yes', '-p', 'write it'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(cwd, 'out.txt'), 'utf8'), 'rewritten\n');
  });

  test('a PermissionRequest hook answers for the user (print mode, no --yes)', async () => {
    const cwd = workspaceWith({ PermissionRequest: [{ matcher: 'write_file', hooks: [command('approve.sh')] }] }, {
      'approve.sh': 'cat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\'',
    });
    const write = toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'notes.txt', content: 'approved by a hook\n' } }]);
    const { result } = await runCli({ inProcess: true, server: { replies: [write, text('written')] }, key: KEY, cwd, args: ['-p', 'write notes'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'approved by a hook\n');
  });

  test('no hook moves a call past plan mode: PreToolUse and PermissionRequest both allow, nothing is written', async () => {
    const allow = 'cat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\'';
    const answer = 'cat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\'';
    const cwd = workspaceWith(
      { PreToolUse: [{ matcher: '.*', hooks: [command('allow.sh')] }], PermissionRequest: [{ hooks: [command('answer.sh')] }] },
      { 'allow.sh': allow, 'answer.sh': answer },
    );
    const write = toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'plan.txt', content: 'x\n' } }]);
    const { result, server } = await runCli({ inProcess: true, server: { replies: [write, text('planned')] }, key: KEY, cwd, args: ['--yes', '--mode', 'plan', '-p', 'plan it'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(cwd, 'plan.txt')), false);
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /plan mode/i);
  });

  test("PostToolUse additionalContext reaches the next request", async () => {
    const cwd = workspaceWith({ PostToolUse: [{ matcher: 'Bash', hooks: [command('after.sh')] }] }, {
      'after.sh': 'cat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"the formatter ran: 2 files changed"}}\'',
    });
    const { result, server } = await runCli({ inProcess: true, server: { replies: [runCommand('call_1', 'echo hi'), text('done')] }, key: KEY, cwd, args: ['--yes', '-p', 'say hi'] });
    assert.equal(result.code, 0, result.stderr);
    const seen = toolResultText(requestAt(server, 1), 'call_1');
    assert.match(seen, /hi/);
    assert.match(seen, /the formatter ran: 2 files changed/);
  });

  test('a UserPromptSubmit hook that exits 2 blocks the prompt: nothing is sent, exit 3 with the reason', async () => {
    const cwd = workspaceWith({ UserPromptSubmit: [{ hooks: [command('prompt.sh')] }] }, {
      'prompt.sh': 'if grep -q password; then echo "prompts may not mention passwords" >&2; exit 2; fi',
    });
    const { result, server } = await runCli({ inProcess: true, server: { replies: [text('never')] }, key: KEY, cwd, args: ['-p', 'what is the admin password?'] });
    assert.equal(result.code, 3, result.stderr);
    assert.equal(server.requests.length, 0);
    assert.match(result.stderr, /A UserPromptSubmit hook blocked this prompt, so nothing was sent: prompts may not mention passwords/);
    assert.equal(hookEntries(cwd)[0]?.blocked, 'prompts may not mention passwords');
  });

  test('a Stop hook keeps the turn going once, with its reason for the model', async () => {
    const cwd = workspaceWith({ Stop: [{ hooks: [command('stop.sh')] }] }, {
      'stop.sh': 'if grep -q \'"stop_hook_active":true\'; then exit 0; fi\necho "run the tests before you finish" >&2\nexit 2',
    });
    const { result, server } = await runCli({ inProcess: true, server: { replies: [text('done'), text('tests pass, done')] }, key: KEY, cwd, args: ['-p', 'fix it'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 2);
    assert.match(JSON.stringify(requestAt(server, 1).body?.messages), /run the tests before you finish/);
    assert.match(result.stdout, /tests pass, done/);
  });

  test('a Stop hook that always objects is bounded', async () => {
    const cwd = workspaceWith({ Stop: [{ hooks: [command('never.sh')] }] }, { 'never.sh': 'echo "not yet" >&2\nexit 2' });
    const { result, server } = await runCli({ inProcess: true, server: { respond: () => text('done') }, key: KEY, cwd, args: ['-p', 'fix it'] });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 4, 'the first answer and three continuations');
    assert.match(result.stderr, /the turn ends after 3 continuations/);
  });

  test('a hook allow does not move a command out of the sandbox', { skip: sandbox.available ? false : `needs a working bubblewrap: ${sandbox.reason}` }, async () => {
    const cwd = workspaceWith({ PreToolUse: [{ matcher: 'Bash', hooks: [command('allow.sh')] }] }, {
      'allow.sh': 'cat > /dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\'',
    });
    const escape = `echo out > ${join(outside, 'escaped.txt')}; echo "write status $?"`;
    const { result, server } = await runCli({ server: { replies: [runCommand('call_out', escape), text('ok')] }, key: KEY, cwd, args: ['-p', 'write outside'] });
    assert.equal(result.code, 0, result.stderr);
    assert.match(toolResultText(requestAt(server, 1), 'call_out'), /write status 1/, 'the allowed command ran, fenced');
    assert.deepEqual(readdirSync(outside), []);
  });

  test("a hook gets no key in its environment, and a key it prints never reaches the model or the session file", async () => {
    const cwd = workspaceWith({ PostToolUse: [{ matcher: 'run_command', hooks: [command('leak.sh')] }] }, {
      'leak.sh': `cat > /dev/null\nenv > "$SYLVAN_PROJECT_DIR/hook-env.txt"\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"the key is ${KEY}"}}'`,
    });
    const { result, server } = await runCli({ server: { replies: [runCommand('call_1', 'echo hi'), text('done')] }, key: KEY, cwd, args: ['--yes', '-p', 'say hi'] });
    assert.equal(result.code, 0, result.stderr);
    const environment = readFileSync(join(cwd, 'hook-env.txt'), 'utf8');
    assert.ok(!environment.includes(KEY) && !environment.includes('DASHSCOPE_API_KEY'), 'no key in the hook environment');
    assert.match(environment, /^CLAUDE_PROJECT_DIR=/m);
    const seen = toolResultText(requestAt(server, 1), 'call_1');
    assert.match(seen, /the key is \[redacted\]/);
    assert.ok(!requestAt(server, 1).rawBody.includes(KEY));
    const sessions = join(cwd, '.sylvan-home', 'sessions');
    for (const name of readdirSync(sessions)) assert.ok(!readFileSync(join(sessions, name), 'utf8').includes(KEY), name);
  });

  test('SessionStart context reaches the first request, SessionEnd runs at exit, a PreCompact exit 2 keeps the history', async () => {
    const cwd = workspaceWith(
      {
        SessionStart: [{ matcher: 'startup', hooks: [command('start.sh')] }],
        PreCompact: [{ matcher: 'manual', hooks: [command('compact.sh')] }],
        SessionEnd: [{ hooks: [command('end.sh')] }],
      },
      {
        'start.sh': 'cat > /dev/null\necho "the build is red since Monday"',
        'compact.sh': 'cat > /dev/null\necho "keep the whole history for the audit" >&2\nexit 2',
        'end.sh': 'cat > "$SYLVAN_PROJECT_DIR/end.json"',
      },
    );
    const { result, server } = await runCli({ inProcess: true, server: { replies: [text('noted')] }, key: KEY, cwd, stdin: 'hello\n/compact\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 1, 'no summary was asked for');
    assert.match(JSON.stringify(requestAt(server, 0).body?.messages), /\[SessionStart hook\] the build is red since Monday/);
    assert.match(result.stdout, /A PreCompact hook kept the history as it is: keep the whole history for the audit/);
    const end = JSON.parse(readFileSync(join(cwd, 'end.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(end.hook_event_name, 'SessionEnd');
    assert.equal(end.reason, 'prompt_input_exit');
  });
});
