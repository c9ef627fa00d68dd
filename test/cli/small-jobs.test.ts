import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { assertEveryRequestValid, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text, toolCalls, type Reply, type Responder } from '../helpers/dashscope-server.ts';
import { runCli, startCli, type ServerRun } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';
import { livingMembersOf } from '../tools/shell/group-processes.ts';

const KEY = 'sk-sylvan-small-jobs-5e21';
const GITHUB_TOKEN = 'ghp-small-jobs-7731';

const run = (id: string, command: string, timeout_seconds?: number) => ({
  id,
  name: 'run_command',
  arguments: { command, ...(timeout_seconds !== undefined && { timeout_seconds }) },
});
/** A print-mode run, in-process: what was sent and shown is the subject, not the process (see `environment`). */
const print = (cwd: string, args: string[], replies: Reply[], env: Record<string, string> = {}, inProcess = true): Promise<ServerRun> =>
  runCli({ inProcess, server: { replies }, cwd, args: ['-p', ...args], key: KEY, env: { GITHUB_TOKEN, ...env } });
const commandTurn = (call: ReturnType<typeof run>): Reply[] => [toolCalls([call]), text('done.')];

const deniedWorkspace = tempWorkspace();
const denied = print(deniedWorkspace, ['touch it'], commandTurn(run('call_touch', 'touch ran.txt')));
const allowedWorkspace = tempWorkspace();
const allowed = print(allowedWorkspace, ['--yes', 'touch it'], commandTurn(run('call_touch', 'touch ran.txt; echo made it')));
const bigOutput = print(tempWorkspace(), ['--yes', 'print a lot'], commandTurn(run('call_big', 'yes "a line of output that goes on" | head -c 1000000; echo; echo THE-END')));
// The environment a command gets comes from the process's own: this one starts the built CLI.
const environment = print(tempWorkspace(), ['--yes', 'show env'], commandTurn(run('call_env', 'env')), {}, false);
// A model step may take 1 s here; the allowed command takes longer and must still finish.
const longerThanStep = print(tempWorkspace(), ['--yes', 'wait'], commandTurn(run('call_wait', 'sleep 2; echo slept', 10)), { SYLVAN_TIMEOUT: '1' });
const timedOut = print(tempWorkspace(), ['--yes', 'sleep'], commandTurn(run('call_sleep', 'echo "group $$"; sleep 100', 1)));

const searchWorkspace = tempWorkspace();
// The test's SYLVAN_HOME lives in the workspace; a real one is elsewhere.
writeFileSync(join(searchWorkspace, '.gitignore'), 'build/\n.sylvan-home/\n');
mkdirSync(join(searchWorkspace, 'build'));
writeFileSync(join(searchWorkspace, 'build', 'out.js'), 'const marker = "built";\n');
writeFileSync(join(searchWorkspace, 'app.js'), 'const marker = "source";\n');
writeFileSync(join(searchWorkspace, '.env'), `OTHER_KEY=marker-secret-4410\n`);
const search = print(searchWorkspace, ['find marker'], [
  toolCalls([{ id: 'call_search', name: 'search_files', arguments: { pattern: 'marker' } }]),
  text('found it.'),
]);

describe('run_command through the CLI (print mode)', { timeout: 60_000 }, () => {
  test('without --yes the command is denied and does not run; the model is told to mention --yes', async () => {
    const { server, result } = await denied;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    assert.ok(!existsSync(join(deniedWorkspace, 'ran.txt')), 'the command ran');
    assert.match(toolResultText(requestAt(server, 1), 'call_touch'), /needs the user's approval.*--yes/);
    assert.match(result.stderr, /⏺ run_command\(command: "touch ran\.txt"\)\n {2}⎿ denied/);
  });

  test('with --yes it runs in the workspace and the model reads the exit code and output', async () => {
    const { server, result } = await allowed;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(existsSync(join(allowedWorkspace, 'ran.txt')));
    const touched = toolResultText(requestAt(server, 1), 'call_touch');
    assert.match(touched, /^exit code 0 \([\d.]+ s\)\nstdout:\nmade it$/, touched);
  });

  test('1 MB of output reaches the model bounded: head and tail kept, the cut counted', async () => {
    const { server } = await bigOutput;
    const output = toolResultText(requestAt(server, 1), 'call_big');
    assert.ok(output.length < 9_000, `${output.length} characters`);
    assert.match(output, /^exit code 0/);
    assert.match(output, /stdout:\na line of output that goes on\n/);
    assert.match(output, /THE-END$/);
    assert.match(output, /\[… [\d,]+ bytes \([\d,]+ lines\) cut from the middle of 1,000,00\d bytes …\]/);
    assert.ok(requestAt(server, 1).rawBody.length < 40_000);
  });

  test('env shows the model none of the keys: not the provider key, not a *_TOKEN, not SYLVAN_* settings', async () => {
    const { server } = await environment;
    const output = toolResultText(requestAt(server, 1), 'call_env');
    assert.match(output, /^exit code 0/);
    assert.match(output, /\nPATH=/, 'env printed nothing useful');
    for (const secret of [KEY, GITHUB_TOKEN, 'DASHSCOPE_API_KEY', 'GITHUB_TOKEN', 'SYLVAN_HOME', 'SYLVAN_MAX_RETRIES']) {
      assert.ok(!output.includes(secret), `${secret} reached the model`);
    }
    for (const request of server.requests) assert.ok(!request.rawBody.includes(KEY), 'the key is in a request body');
  });

  test('an allowed command is bounded by its own timeout, not by the model step timeout', async () => {
    const { server, result } = await longerThanStep;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    assert.match(toolResultText(requestAt(server, 1), 'call_wait'), /^exit code 0 \([\d.]+ s\)\nstdout:\nslept$/);
    assert.equal(result.stdout, 'done.\n');
  });

  test('sleep 100 is stopped at its 1 s timeout, the model is told, and no process of it is left', async () => {
    const { server, result } = await timedOut;
    assert.equal(result.code, 0, result.stderr);
    const output = toolResultText(requestAt(server, 1), 'call_sleep');
    assert.match(output, /^timed out after 1 s and was stopped/);
    const group = Number(/group (\d+)/.exec(output)?.[1]);
    assert.ok(group > 0, output);
    assert.deepEqual(livingMembersOf(group), []);
  });

  test('Ctrl-C while a command runs stops it with its group, exits 130, and leaves nothing running', async () => {
    let reportGroup: (group: number) => void = () => {};
    const groupSeen = new Promise<number>((resolve) => (reportGroup = resolve));
    const cwd = tempWorkspace();
    const groupFile = join(cwd, 'group.txt');
    const server = closeAtEnd(
      await startDashScopeServer({
        apiKey: KEY,
        respond: (_request, index) => (index === 0 ? toolCalls([run('call_long', `echo $$ > ${groupFile}; sleep 100 & sleep 100`)]) : text('stopped')),
      }),
    );
    // The host's process group is what this test reads: without the sandbox (test/cli/sandbox.test.ts has its own).
    const cli = startCli({ cwd, args: ['-p', '--yes', 'run long'], env: { ...dashscopeEnv(server), DASHSCOPE_API_KEY: KEY, SYLVAN_SANDBOX: 'off' } });
    const poll = setInterval(() => {
      if (existsSync(groupFile) && readFileSync(groupFile, 'utf8').trim() !== '') reportGroup(Number(readFileSync(groupFile, 'utf8')));
    }, 25);
    const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the command never started')), 20_000).unref());
    try {
      const group = await Promise.race([groupSeen, deadline]);
      assert.ok(livingMembersOf(group).length > 0);
      cli.child.kill('SIGINT');
      const exited = await cli.exited;
      assert.equal(exited.code, 130, exited.stderr);
      assert.deepEqual(livingMembersOf(group), [], 'the command outlived Sylvan');
    } finally {
      clearInterval(poll);
      cli.child.kill('SIGKILL');
    }
  });
});

describe('search_files through the CLI', { timeout: 60_000 }, () => {
  test('finds the pattern in source files, not in what .gitignore lists, and never sends .env contents', async () => {
    const { server, result } = await search;
    assert.equal(result.code, 0, result.stderr);
    const output = toolResultText(requestAt(server, 1), 'call_search');
    assert.match(output, /^1 match for \/marker\/ in the workspace:\napp\.js:1: const marker = "source";/);
    assert.ok(!output.includes('build/out.js'));
    for (const request of server.requests) assert.ok(!request.rawBody.includes('marker-secret-4410'), '.env contents reached the model');
    assert.ok(!result.stderr.includes('marker-secret-4410') && !result.stdout.includes('marker-secret-4410'));
  });
});

/** Each user line "run: CMD" makes the model call run_command CMD; "edit" calls edit_file; after a result it says "done." */
const onRequest: Responder = (request) => {
  const last = request.body?.messages?.at(-1);
  if (last?.role !== 'user') return text('done.');
  const line = String(last.content);
  if (line === 'edit') {
    return toolCalls([{ id: 'call_edit', name: 'edit_file', arguments: { path: 'notes.txt', old_text: 'beta', new_text: 'BETA' } }]);
  }
  return toolCalls([run(`call_${line.replace(/\W+/g, '_')}`, line.replace(/^run: /, ''))]);
};

/** The REPL in a real terminal: a piped REPL never takes a line as an approval answer. */
async function approvalSession() {
  const workspace = tempWorkspace();
  mkdirSync(join(workspace, 'bin'));
  // A stand-in npm that only says what it was asked, so "npm publish" publishes nothing.
  writeFileSync(join(workspace, 'bin', 'npm'), '#!/bin/sh\necho "fake npm $*"\n');
  chmodSync(join(workspace, 'bin', 'npm'), 0o755);
  writeFileSync(join(workspace, 'notes.txt'), 'alpha\r\nbeta\r\ngamma\r\n');
  const server = closeAtEnd(await startDashScopeServer({ respond: onRequest }));
  const terminal = await startTerminal({
    cwd: workspace,
    env: {
      ...dashscopeEnv(server, { DASHSCOPE_API_KEY: KEY }),
      PATH: `${join(workspace, 'bin')}:${process.env.PATH ?? ''}`,
      SYLVAN_HOME: join(workspace, '.sylvan-home'),
      SYLVAN_MAX_RETRIES: '0',
    },
    columns: 200,
  });
  after(() => terminal.close());
  await terminal.expect(/› /, 'the first prompt');
  const say = (line: string, next: RegExp, what: string) => terminal.say(line, next, what);
  // The one-key menu's last row; a key answers it, the Enter after it is an empty line that sends nothing.
  const asked = /Esc says no\)/;
  const done = /done\.[\s\S]*› /;
  await say('run: npm test', asked, 'the question about npm test');
  await say('a', done, 'npm test run after "always"');
  await say('run: npm test --coverage', done, 'npm test --coverage run without asking');
  await say('run: npm publish', asked, 'the question about npm publish');
  await say('n', done, 'npm publish denied');
  await say('edit', asked, 'the question about the edit');
  await say('y', done, 'the edit made');
  terminal.type('\x04');
  const code = await terminal.exited();
  return { workspace, server, code, screen: terminal.output.replace(/\r/g, '') };
}

describe('approvals in the REPL', { timeout: 90_000 }, () => {
  const running = approvalSession();
  running.catch(() => {});

  test('the question shows the exact command and folder; "always" covers npm test, not npm publish', async () => {
    const { server, code, screen, workspace } = await running;
    assert.equal(code, 0, screen);
    assertEveryRequestValid(server);
    const questions = [...screen.matchAll(/(run_command [^?\n]*)\? \n❯ y {2}Yes\n(.*)\n/g)];
    assert.deepEqual(
      [...new Set(questions.map((match) => match[1]))],
      ['run_command npm test', 'run_command npm publish'],
    );
    assert.equal(questions[0]?.[2], '  a  Yes, and always `npm test …` this session');
    assert.match(screen, /run_command npm test\? Yes, and always `npm test …` this session(\x1b\[\d+C)?\n/);
    assert.match(screen, /run_command npm publish\? No(\x1b\[\d+C)?\n/);
    assert.ok(screen.includes(`  │ $ npm test\n  │ in ${workspace}`), screen);
    const results = server.requests.map((request) => request.rawBody).join('\n');
    assert.match(results, /fake npm test --coverage/);
    assert.ok(!results.includes('fake npm publish'), 'npm publish ran');
  });

  test('an edit is approved after a unified diff; the file keeps its CRLF line ends', async () => {
    const { screen, workspace } = await running;
    assert.ok(
      screen.includes(['  │ --- a/notes.txt', '  │ +++ b/notes.txt', '  │ @@ -1,3 +1,3 @@', '  │ 1 1   alpha', '  │ 2   - beta', '  │   2 + BETA', '  │ 3 3   gamma'].join('\n')),
      screen,
    );
    assert.match(screen, /edit_file notes\.txt \(1 replacement\)\? \n❯ y {2}Yes\n {2}a {2}Yes, and always edits of notes\.txt this session\n/);
    assert.match(screen, /edit_file notes\.txt \(1 replacement\)\? Yes(\x1b\[\d+C)?\n/);
    assert.equal(readFileSync(join(workspace, 'notes.txt'), 'utf8'), 'alpha\r\nBETA\r\ngamma\r\n');
  });
});
