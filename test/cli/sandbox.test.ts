import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { toolResultText, requestAt } from '../helpers/chat-requests.ts';
import { runCli, type ServerRun } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls } from '../helpers/dashscope-server.ts';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { livingWith } from '../tools/shell/group-processes.ts';
import { hostListener } from '../helpers/host-listener.ts';

// Issue 22's done-when list, through the built CLI under --yes, the model a loopback DashScope.
const KEY = 'sk-sylvan-sandbox-test-8c41f0';
const availability = probeSandbox();
const needsBwrap = availability.available ? false : `needs a working bubblewrap (the suite's .ci/run installs it): ${availability.reason}`;

// Outside /tmp: the sandbox's /tmp is private, so a write there would never show on the host anyway.
const outside = mkdtempSync(join('/var/tmp', 'sylvan-cli-outside-'));
after(() => rmSync(outside, { recursive: true, force: true }));

const host = hostListener({ before, after });

const token = () => `${process.pid}${Math.floor(Math.random() * 100_000)}`;

/** One call that tries everything a command should not manage, and a second that looks for the first one's setsid grandchild. */
function attack(sleeper: string) {
  return [
    [
      'tr "\\0" "\\n" < /proc/$PPID/environ',
      'echo ---ssh; cat ~/.ssh/id_rsa',
      `echo ---outside; echo x > ${outside}/escaped-$$.txt; echo "write status $?"`,
      `echo ---net; exec 3<>/dev/tcp/127.0.0.1/${host.port} && head -1 <&3`,
      `echo ---env; env`,
      `setsid sleep ${sleeper} > /dev/null 2>&1 &`,
      'echo ---end',
    ].join('\n'),
    // "[x]" so grep's own command line does not match. (In the sandbox it sees its own processes only: the host's look is below.)
    `ps -eo stat=,args= | grep -v '^Z' | grep -c "sleep [${sleeper[0]}]${sleeper.slice(1)}"; true`,
  ];
}

function attackRun(workspace: string, sleeper: string, options: { args?: string[]; env?: Record<string, string>; stdin?: string } = {}): Promise<ServerRun> {
  mkdirSync(join(workspace, '.ssh'), { recursive: true });
  writeFileSync(join(workspace, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
  const [first, second] = attack(sleeper);
  return runCli({ server: {
      replies: [
        toolCalls([{ id: 'call_attack', name: 'run_command', arguments: { command: first } }]),
        toolCalls([{ id: 'call_look', name: 'run_command', arguments: { command: second } }]),
        text('done.'),
      ],
    },
      cwd: workspace,
      key: KEY,
      args: options.args ?? ['-p', '--yes', 'try it'],
      stdin: options.stdin,
      env: {
        PGPASSWORD: 'pg-secret-value-1',
        MYSQL_PWD: 'mysql-secret-value-2',
        npm_config__authToken: 'npm-secret-value-3',
        DATABASE_URL: 'postgres://app:db-secret-value-4@db.internal/app',
        AWS_ACCESS_KEY_ID: 'AKIASECRETVALUE5',
        OPENAI_API_KEY_2: 'sk-secret-value-6',
        SAME_AS_KEY: KEY,
        ...options.env,
      },
    });
}

const CREDENTIALS = ['pg-secret-value-1', 'mysql-secret-value-2', 'npm-secret-value-3', 'db-secret-value-4', 'AKIASECRETVALUE5', 'sk-secret-value-6'];

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}

/** What every run must show, sandbox or not: no key, no credential, no escaped process, nothing on disk. */
function assertOtherRulesHold(run: ServerRun, sleeper: string): string {
  const { server, result, cwd } = run;
  assert.equal(result.code, 0, result.stderr);
  const output = toolResultText(requestAt(server, 1), 'call_attack');
  assert.match(output, /---end/, output);
  for (const request of server.requests) assert.ok(!request.rawBody.includes(KEY), 'the key reached the model');
  const env = output.slice(output.indexOf('---env'));
  for (const credential of CREDENTIALS) assert.ok(!env.includes(credential), `${credential} is in the command's environment`);
  assert.doesNotMatch(env, /^SAME_AS_KEY=/m);
  assert.match(toolResultText(requestAt(server, 2), 'call_look'), /^exit code 0 \([\d.]+ s\)\nstdout:\n0$/, 'the setsid grandchild outlived its command');
  assert.deepEqual(livingWith(`sleep ${sleeper}`), []);
  for (const file of filesUnder(join(cwd, '.sylvan-home'))) assert.ok(!readFileSync(file, 'utf8').includes(KEY), `the key is in ${file}`);
  return output;
}

describe('a command in the sandbox (bubblewrap, as the CLI runs it by default)', { skip: needsBwrap, timeout: 120_000 }, () => {
  test('under --yes: no write outside, no ~/.ssh, no key in /proc/$PPID/environ, no network, no setsid survivor', async () => {
    const sleeper = token();
    const run = await attackRun(tempWorkspace(), sleeper);
    const output = assertOtherRulesHold(run, sleeper);
    assert.ok(!output.includes('DASHSCOPE_API_KEY'), output);
    assert.ok(!output.includes('PRIVATE-KEY-MATERIAL'), output);
    assert.match(output, /Read-only file system\n?[\s\S]*write status 1|write status 1/);
    assert.ok(readdirSync(outside).length === 0, 'a file appeared outside the workspace');
    assert.doesNotMatch(output, /hello from the host/);
  });

  test('with "sandbox": { "network": true } in the user settings, the loopback listener answers', async () => {
    const workspace = tempWorkspace();
    mkdirSync(join(workspace, '.sylvan-home'), { recursive: true });
    writeFileSync(join(workspace, '.sylvan-home', 'settings.json'), JSON.stringify({ sandbox: { network: true } }));
    const sleeper = token();
    const output = assertOtherRulesHold(await attackRun(workspace, sleeper), sleeper);
    assert.match(output, /hello from the host/);
  });
});

/**
 * A PATH with every program of the machine's but bwrap: the sandbox cannot start. A folder that
 * holds bwrap is replaced by one of links to its other programs (made once: /bin is /usr/bin on
 * Debian); the others stay as they are.
 */
function pathWithoutBwrap(): string {
  const standIns = new Map<string, string>();
  const path = (process.env.PATH ?? '').split(':').map((directory) => {
    if (!existsSync(join(directory, 'bwrap'))) return directory;
    const real = realpathSync(directory);
    let folder = standIns.get(real);
    if (folder === undefined) {
      const made = mkdtempSync(join('/var/tmp', 'sylvan-no-bwrap-'));
      after(() => rmSync(made, { recursive: true, force: true }));
      for (const name of readdirSync(real)) if (name !== 'bwrap') symlinkSync(join(real, name), join(made, name));
      standIns.set(real, (folder = made));
    }
    return folder;
  });
  return path.join(':');
}

describe('with no sandbox to start', { timeout: 120_000 }, () => {
  test('the banner says so, and the other rules hold: no key, no credential, no setsid survivor', async () => {
    const sleeper = token();
    const run = await attackRun(tempWorkspace(), sleeper, { args: ['--yes'], stdin: 'try it\n', env: { PATH: pathWithoutBwrap() } });
    assert.match(run.result.stdout, /\(commands run without a sandbox: bubblewrap \(bwrap\) is not installed/);
    const output = assertOtherRulesHold(run, sleeper);
    // Sylvan's own environment is readable without the sandbox: the key's value is scrubbed on the way.
    assert.match(output, /DASHSCOPE_API_KEY=\[redacted\]/);
  });

  test('SYLVAN_SANDBOX=off says so in the banner and in /sandbox', async () => {
    const { result } = await runCli({ server: { replies: [text('hi')] }, key: KEY, stdin: '/sandbox\n', env: { SYLVAN_SANDBOX: 'off' } });
    assert.match(result.stdout, /\(commands run without a sandbox: turned off by SYLVAN_SANDBOX=off; \/sandbox tells more\)/);
    assert.match(result.stdout, /Commands run without a sandbox: turned off by SYLVAN_SANDBOX=off\.\n {2}They still get no credential/);
  });
});

describe('SYLVAN_SANDBOX in a folder\'s .env, through the real configuration', { timeout: 120_000 }, () => {
  test('=off does not turn the sandbox off', { skip: needsBwrap }, async () => {
    const workspace = tempWorkspace();
    writeFileSync(join(workspace, '.env'), 'SYLVAN_SANDBOX=off\n');
    const { server, result } = await runCli({ server: { replies: [toolCalls([{ id: 'call_where', name: 'run_command', arguments: { command: 'echo "pid $$"' } }]), text('done.')] }, cwd: workspace, key: KEY, args: ['--yes'], stdin: '/sandbox\ngo\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /turned off/);
    assert.match(result.stdout, /Commands run in a bubblewrap sandbox/);
    // In its own PID namespace, the shell is one of the first processes.
    assert.match(toolResultText(requestAt(server, 1), 'call_where'), /^pid \d$/m);
  });

  test('=on makes it required: with no bubblewrap, commands do not run', async () => {
    const workspace = tempWorkspace();
    writeFileSync(join(workspace, '.env'), 'SYLVAN_SANDBOX=on\n');
    const { server, result } = await runCli({ server: { replies: [toolCalls([{ id: 'call_where', name: 'run_command', arguments: { command: 'echo ran-unfenced' } }]), text('done.')] }, cwd: workspace, key: KEY, args: ['--yes'], stdin: '/sandbox\ngo\n', env: { PATH: pathWithoutBwrap() } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Commands do not run: the sandbox is required \(mode "on"\), but bubblewrap \(bwrap\) is not installed/);
    const output = toolResultText(requestAt(server, 1), 'call_where');
    assert.match(output, /^Not run: the sandbox is required/);
    assert.doesNotMatch(output, /ran-unfenced/);
  });
});

/** A folder holding a `bwrap` that is installed but cannot start (user namespaces switched off), first on PATH. */
function pathWithFailingBwrap(): string {
  const folder = mkdtempSync(join('/var/tmp', 'sylvan-failing-bwrap-'));
  after(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
  return `${folder}:${process.env.PATH ?? ''}`;
}

describe('a bubblewrap that is installed but cannot start', { timeout: 120_000 }, () => {
  const replies = () => [toolCalls([{ id: 'call_run', name: 'run_command', arguments: { command: 'echo ran-here' } }]), text('done.')];

  test('auto: commands run without it, and the first turn and /sandbox say why', async () => {
    const { server, result } = await runCli({ server: { replies: replies() }, key: KEY, args: ['--yes'], stdin: 'go\n/sandbox\n', env: { PATH: pathWithFailingBwrap() } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\(commands run without a sandbox: bwrap cannot start here \(bwrap: No permissions to create new namespace\); \/sandbox tells more\)/);
    assert.match(result.stdout, /Commands run without a sandbox: bwrap cannot start here/);
    assert.match(toolResultText(requestAt(server, 1), 'call_run'), /^exit code 0 [^\n]*\nstdout:\nran-here$/);
  });

  test('on: commands do not run, and the model and the user are told the reason', async () => {
    const { server, result } = await runCli({ server: { replies: replies() }, key: KEY, args: ['--yes', '--sandbox', 'on'], stdin: 'go\n/sandbox\n', env: { PATH: pathWithFailingBwrap() } });
    assert.equal(result.code, 0, result.stderr);
    const output = toolResultText(requestAt(server, 1), 'call_run');
    assert.match(output, /^Not run: the sandbox is required \(sandbox mode "on"\) but cannot start: bwrap cannot start here \(bwrap: No permissions to create new namespace\)/);
    assert.doesNotMatch(result.stdout, /commands run without a sandbox/);
    assert.match(result.stdout, /\(commands will not run: the sandbox is required by --sandbox on, but bwrap cannot start here \(bwrap: No permissions to create new namespace\); \/sandbox tells more\)/);
    assert.match(result.stdout, /Commands do not run: the sandbox is required \(mode "on"\), but bwrap cannot start here/);
  });
});
