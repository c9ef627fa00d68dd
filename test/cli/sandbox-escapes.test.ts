import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls } from '../helpers/dashscope-server.ts';
import { probeSandbox } from '../../src/sandbox/availability.ts';

// What a command in the sandbox could leave for later, or reach now, outside its fence: issue 32's
// failures 3 and 4, through the built CLI under --yes, the model a loopback DashScope.
const KEY = 'sk-sylvan-escapes-test-5d20aa';
const availability = probeSandbox();
const needsBwrap = availability.available ? false : `needs a working bubblewrap (the suite's .ci/run installs it): ${availability.reason}`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd } });

/** A repository with one commit. */
function repository(): string {
  const workspace = tempWorkspace();
  git(workspace, 'init', '-q', '-b', 'main');
  writeFileSync(join(workspace, 'readme.txt'), 'hello\n');
  git(workspace, 'add', '.');
  git(workspace, 'commit', '-q', '-m', 'first');
  return workspace;
}

/** Everything under .git, path → bytes (base64), for a before-and-after comparison. */
function gitFolderState(workspace: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const entry of readdirSync(join(workspace, '.git'), { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    state[path] = entry.isFile() ? readFileSync(path).toString('base64') : entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : 'other';
  }
  return state;
}

const GIT_ATTACK = [
  'git config core.fsmonitor "touch $PWD/fsmonitor-ran"; echo "config $?"',
  'printf "#!/bin/sh\\ntouch $PWD/hook-ran\\n" > .git/hooks/pre-commit; echo "hook $?"',
  'chmod +x .git/hooks/pre-commit 2>/dev/null; echo "x" >> .git/config; echo "append $?"',
  'rm -f .git/HEAD; echo "rm $?"; mkfifo .git/HEAD.new 2>/dev/null; echo "fifo $?"',
  'ln -sf /dev/zero .git/HEAD; echo "link $?"',
  'mv .git .git-moved; echo "move $?"',
  'rm -rf .git; echo "remove $?"',
  'echo "gitdir: $PWD/planted" > .git; echo "pointer $?"',
  'echo ---end',
].join('\n');

describe('in the sandbox, .git/ stays as it was', { skip: needsBwrap, timeout: 120_000 }, () => {
  test('a command cannot set core.fsmonitor, write a hook, or swap, move or remove HEAD or .git', async () => {
    const workspace = repository();
    const before = gitFolderState(workspace);
    const { server, result } = await runCli({ server: { replies: [toolCalls([{ id: 'call_git', name: 'run_command', arguments: { command: GIT_ATTACK } }]), text('done.')] }, cwd: workspace, key: KEY, args: ['-p', '--yes', 'go'] });
    assert.equal(result.code, 0, result.stderr);
    const output = toolResultText(requestAt(server, 1), 'call_git');
    assert.match(output, /---end/, output);
    for (const step of ['config', 'hook', 'append', 'rm', 'fifo', 'link', 'move', 'remove', 'pointer']) {
      assert.match(output, new RegExp(`^${step} [1-9]`, 'm'), `"${step}" succeeded:\n${output}`);
    }
    assert.deepEqual(gitFolderState(workspace), before);
    git(workspace, 'status', '--short');
    assert.deepEqual(readdirSync(workspace).sort(), ['.git', '.sylvan-home', 'readme.txt'].sort());
  });
});

describe('a HEAD that a command run without the sandbox made a trap', { timeout: 120_000 }, () => {
  for (const [what, make] of [
    ['a FIFO', (head: string) => execFileSync('mkfifo', [head])],
    ['a link to /dev/zero', (head: string) => symlinkSync('/dev/zero', head)],
  ] as const) {
    test(`${what}: the next start and its turns end, with no branch recorded`, async () => {
      const workspace = repository();
      rmSync(join(workspace, '.git', 'HEAD'));
      make(join(workspace, '.git', 'HEAD'));
      const { result, cwd } = await runCli({ server: { replies: [text('hello.'), text('hello again.')] }, cwd: workspace, key: KEY, stdin: 'hi\nand again\n', killAfterMs: 30_000 });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /hello\.[\s\S]*hello again\./);
      const sessions = readdirSync(join(cwd, '.sylvan-home', 'sessions'), { recursive: true }).map(String).filter((name) => name.endsWith('.jsonl'));
      assert.equal(sessions.length, 1, String(sessions));
      assert.doesNotMatch(readFileSync(join(cwd, '.sylvan-home', 'sessions', sessions[0]!), 'utf8'), /"branch":"/);
    });
  }
});

/** A Unix socket server standing for a host service: it greets whoever connects. */
function service(path: string): Promise<Server> {
  const server = createServer((socket) => socket.end('HOST-SERVICE\n'));
  return new Promise((resolve) => server.listen(path, () => resolve(server)));
}

describe('host services on Unix sockets', { skip: needsBwrap, timeout: 120_000 }, () => {
  // Outside /tmp: the sandbox's /tmp is private already.
  const root = mkdtempSync(join('/var/tmp', 'sylvan-sockets-'));
  const runtime = join(root, 'runtime');
  const run = `/run/sylvan-test-${process.pid}.sock`;
  // A service the user runs from the workspace itself (a dev server's socket) is the host's too.
  const workspace = tempWorkspace();
  const sockets = [join(root, 'service.sock'), join(runtime, 'bus'), join(workspace, 'app.sock'), ...(process.getuid?.() === 0 ? [run] : [])];
  const servers: Server[] = [];
  before(async () => {
    mkdirSync(runtime, { mode: 0o700 });
    for (const path of sockets) servers.push(await service(path));
  });
  after(() => {
    for (const server of servers) server.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(run, { force: true });
  });

  test('a command with no network grant reaches none: under /run, the host\'s /var/tmp, $XDG_RUNTIME_DIR, the workspace', async () => {
    const probe = `for (const p of ${JSON.stringify(sockets)}) await new Promise((r) => require("net").connect(p).on("data", (d) => { console.log(p, String(d).trim()); r(); }).on("error", (e) => { console.log(p, e.code); r(); }))`;
    const command = `${process.execPath} -e '(async () => { ${probe} })()'; echo ---end`;
    // The test proves nothing where the services cannot be reached from here.
    for (const path of sockets) chmodSync(path, 0o777);
    const { server, result } = await runCli({ server: { replies: [toolCalls([{ id: 'call_sockets', name: 'run_command', arguments: { command } }]), text('done.')] }, cwd: workspace, key: KEY, args: ['-p', '--yes', 'go'], env: { XDG_RUNTIME_DIR: runtime } });
    assert.equal(result.code, 0, result.stderr);
    const output = toolResultText(requestAt(server, 1), 'call_sockets');
    assert.match(output, /---end/, output);
    for (const path of sockets) assert.match(output, new RegExp(`^${path} (ENOENT|ECONNREFUSED|EACCES)`, 'm'), `${path}:\n${output}`);
    assert.doesNotMatch(output, /HOST-SERVICE/);
  });
});
