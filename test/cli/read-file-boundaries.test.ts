import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';
import { assertEveryRequestValid, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { text, toolCalls, type Reply } from '../helpers/dashscope-server.ts';
import { filesContaining } from '../helpers/files-containing.ts';
import { runCli, type ServerRun } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const KEY = 'sk-sylvan-files-test-0c7d52';

/**
 * Runs `sylvan -p` in `cwd` against a loopback DashScope scripted with `replies`. Without
 * `key`, KEY travels in `env` as DASHSCOPE_API_KEY; with it, the workspace's .env must supply it.
 */
const printAgainstServer = (options: { cwd: string; replies: Reply[]; args: string[]; env?: Record<string, string>; key?: string }): Promise<ServerRun> =>
  runCli({ inProcess: true, server: { replies: options.replies }, cwd: options.cwd, args: options.args, env: options.env, key: options.key ?? KEY, keyFromDotenv: options.key !== undefined });

const readCall = (id: string, path: string) => ({ id, name: 'read_file', arguments: { path } });
const writeCall = (id: string, path: string, content: string) => ({ id, name: 'write_file', arguments: { path, content } });

const PACKAGE_JSON = `${JSON.stringify({ name: 'files-fixture', version: '9.9.9', description: 'marker-4471' }, null, 2)}\n`;
const NOTE = '# 笔记\n今天学习了 Sylvan 的文件工具。\n';
// 4,000 numbered lines of 50 characters: 200 kB.
const BIG_FILE = Array.from({ length: 4000 }, (_, index) => `line ${String(index + 1).padStart(5, '0')} `.padEnd(49, 'x')).join('\n') + '\n';

const readsWorkspace = tempWorkspace();
writeFileSync(join(readsWorkspace, 'package.json'), PACKAGE_JSON);
writeFileSync(join(readsWorkspace, 'big.log'), BIG_FILE);
mkdirSync(join(readsWorkspace, '中文'));
writeFileSync(join(readsWorkspace, '中文', '笔记.md'), NOTE);
const reads = printAgainstServer({
  cwd: readsWorkspace,
  args: ['-p', '帮我读一下 package.json 的内容'],
  replies: [
    toolCalls([readCall('call_package', 'package.json'), readCall('call_big', 'big.log'), readCall('call_note', '中文/笔记.md')]),
    text('package.json 的名字是 files-fixture。'),
  ],
});

const SECRET = 'sk-secret-123';
const refusalsWorkspace = tempWorkspace();
writeFileSync(join(refusalsWorkspace, '.env'), `DASHSCOPE_API_KEY=${SECRET}\n`);
symlinkSync('/etc/passwd', join(refusalsWorkspace, 'passwd-link'));
const refusals = printAgainstServer({
  cwd: refusalsWorkspace,
  key: SECRET,
  args: ['-p', '读一下 /etc/passwd 和 .env'],
  replies: [
    toolCalls([
      readCall('call_up', '../../etc/passwd'),
      readCall('call_absolute', '/etc/passwd'),
      readCall('call_link', 'passwd-link'),
      readCall('call_env', '.env'),
    ]),
    text('这些文件我都读不到。'),
  ],
});

function workspaceWithNotes(): string {
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'notes.txt'), 'original\n');
  return cwd;
}
const writeReplies = (path: string): Reply[] => [toolCalls([writeCall('call_write', path, 'changed\n')]), text('好了。')];
const writeWithoutYes = printAgainstServer({ cwd: workspaceWithNotes(), args: ['-p', '把 notes.txt 改成 changed'], replies: writeReplies('notes.txt') });
const writeWithYesFlag = printAgainstServer({ cwd: workspaceWithNotes(), args: ['-p', '--yes', '写 out/hello.md'], replies: writeReplies('out/hello.md') });
const writeWithYesEnv = printAgainstServer({
  cwd: workspaceWithNotes(),
  args: ['-p', '把 notes.txt 改成 changed'],
  env: { SYLVAN_YES: '1' },
  replies: writeReplies('notes.txt'),
});

// SYLVAN_SECRET_PATTERNS, from the environment to the tools: the same files, with and without it.
const EXTRA_SECRET = 'db-password-7731';
function workspaceWithExtraSecrets(): string {
  const cwd = tempWorkspace();
  writeFileSync(join(cwd, 'db.secret.yaml'), `password: ${EXTRA_SECRET}\n`);
  mkdirSync(join(cwd, 'config', 'prod'), { recursive: true });
  writeFileSync(join(cwd, 'config', 'prod', 'creds.json'), `{"token":"${EXTRA_SECRET}"}\n`);
  writeFileSync(join(cwd, 'notes.txt'), 'nothing secret here\n');
  return cwd;
}
const extraSecretReplies = (): Reply[] => [
  toolCalls([
    readCall('call_yaml', 'db.secret.yaml'),
    readCall('call_creds', 'config/prod/creds.json'),
    readCall('call_notes', 'notes.txt'),
    writeCall('call_overwrite', 'db.secret.yaml', 'password: hunter2\n'),
  ]),
  text('好了。'),
];
const withExtraSecrets = printAgainstServer({
  cwd: workspaceWithExtraSecrets(),
  args: ['-p', '--yes', '读一下配置'],
  env: { SYLVAN_SECRET_PATTERNS: '*.secret.yaml, config/prod/*' },
  replies: extraSecretReplies(),
});
const withoutExtraSecrets = printAgainstServer({ cwd: workspaceWithExtraSecrets(), args: ['-p', '--yes', '读一下配置'], replies: extraSecretReplies() });

describe('read_file through the CLI', () => {
  test('the content of package.json reaches the model in the second request', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await reads;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    const content = toolResultText(requestAt(server, 1), 'call_package');
    assert.match(content, /^package\.json \(5 lines/);
    for (const line of PACKAGE_JSON.trimEnd().split('\n')) assert.ok(content.includes(line), `missing ${line} in:\n${content}`);
    assert.equal(result.stdout, 'package.json 的名字是 files-fixture。\n');
    assert.match(result.stderr, /read_file\(path: "package\.json"\)/);
  });

  test('a 200 kB file reaches the model as at most 8,000 characters, with a note on how to read on', CLI_TEST_TIMEOUT, async () => {
    const { server } = await reads;
    assert.ok(BIG_FILE.length >= 200_000);
    const content = toolResultText(requestAt(server, 1), 'call_big');
    assert.ok(content.length <= 8_000, `${content.length} characters`);
    assert.ok(content.includes('line 00001 '));
    assert.ok(!content.includes('line 04000 '));
    assert.match(content, /call read_file with offset \d+ to read more/);
    assert.ok(requestAt(server, 1).rawBody.length < 40_000, 'the request carries more than the capped result');
  });

  test('a path with Chinese characters is read', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await reads;
    const content = toolResultText(requestAt(server, 1), 'call_note');
    assert.match(content, /^中文\/笔记\.md \(2 lines/);
    assert.ok(content.includes('今天学习了 Sylvan 的文件工具。'), content);
    assert.match(result.stderr, /read_file\(path: "中文\/笔记\.md"\)/);
  });
});

describe('read_file refuses what lies outside the workspace and secrets', () => {
  test('../../etc/passwd, /etc/passwd and a symlink to it are refused as outside the workspace', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await refusals;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    const second = requestAt(server, 1);
    for (const id of ['call_up', 'call_absolute', 'call_link']) {
      assert.match(toolResultText(second, id), /outside the workspace/, id);
    }
  });

  test('no request ever carries the content of /etc/passwd', CLI_TEST_TIMEOUT, async (context) => {
    if (!readFileSync('/etc/passwd', 'utf8').includes('root:')) return context.skip('/etc/passwd has no root entry here');
    const { server } = await refusals;
    for (const request of server.requests) assert.ok(!request.rawBody.includes('root:'), 'passwd content reached the server');
  });

  test('.env is refused, and its key (the one Sylvan uses) is only ever in the Authorization header', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await refusals;
    assert.match(toolResultText(requestAt(server, 1), 'call_env'), /refused/);
    for (const request of server.requests) {
      assert.equal(request.headers.authorization, `Bearer ${SECRET}`, 'the key from .env was not used');
      assert.ok(!request.rawBody.includes(SECRET), 'the key reached a request body');
    }
    assert.ok(!result.stdout.includes(SECRET) && !result.stderr.includes(SECRET), 'the key was shown');
    assert.notDeepEqual(filesContaining(refusalsWorkspace, 'call_env'), [], 'no session transcript was saved to check');
    assert.deepEqual(filesContaining(refusalsWorkspace, SECRET, ['.env']), [], 'the key was copied to disk');
  });
});

describe('write_file in print mode', () => {
  test('without --yes the disk is untouched, the model is told why, and the turn completes', CLI_TEST_TIMEOUT, async () => {
    const { server, cwd, result } = await writeWithoutYes;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    assert.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'original\n');
    const denial = toolResultText(requestAt(server, 1), 'call_write');
    assert.match(denial, /not run/);
    assert.match(denial, /--yes/);
    assert.match(result.stderr, /denied/);
    assert.equal(result.stdout, '好了。\n');
  });

  test('a denied call is reported once on stderr', CLI_TEST_TIMEOUT, async () => {
    const { result } = await writeWithoutYes;
    assert.equal(result.stderr.match(/denied/g)?.length, 1, result.stderr);
  });

  test('--yes writes the file, folders included', CLI_TEST_TIMEOUT, async () => {
    const { server, cwd, result } = await writeWithYesFlag;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    assert.equal(readFileSync(join(cwd, 'out', 'hello.md'), 'utf8'), 'changed\n');
    assert.match(toolResultText(requestAt(server, 1), 'call_write'), /^Wrote out\/hello\.md/);
  });

  test('SYLVAN_YES=1 writes the file', CLI_TEST_TIMEOUT, async () => {
    const { server, cwd, result } = await writeWithYesEnv;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    assert.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'changed\n');
    assert.match(toolResultText(requestAt(server, 1), 'call_write'), /^Overwrote notes\.txt/);
    assert.equal(existsSync(join(cwd, 'out')), false);
  });
});

describe('SYLVAN_SECRET_PATTERNS end to end', () => {
  test('files matching the extra patterns are refused to read and to write; their content never reaches the model', CLI_TEST_TIMEOUT, async () => {
    const { server, cwd, result } = await withExtraSecrets;
    assert.equal(result.code, 0, result.stderr);
    assertEveryRequestValid(server);
    const second = requestAt(server, 1);
    assert.match(toolResultText(second, 'call_yaml'), /reading db\.secret\.yaml is refused/);
    assert.match(toolResultText(second, 'call_creds'), /refused/);
    assert.match(toolResultText(second, 'call_overwrite'), /writing db\.secret\.yaml is refused/);
    assert.match(toolResultText(second, 'call_notes'), /nothing secret here/, 'other files are still read');
    for (const request of server.requests) assert.ok(!request.rawBody.includes(EXTRA_SECRET), 'a secret reached a request');
    assert.equal(readFileSync(join(cwd, 'db.secret.yaml'), 'utf8'), `password: ${EXTRA_SECRET}\n`, 'the secret file was overwritten');
  });

  test('without the variable the same files are ordinary files (so the patterns are what refused them)', CLI_TEST_TIMEOUT, async () => {
    const { server, cwd, result } = await withoutExtraSecrets;
    assert.equal(result.code, 0, result.stderr);
    const second = requestAt(server, 1);
    assert.ok(toolResultText(second, 'call_creds').includes(EXTRA_SECRET), toolResultText(second, 'call_creds'));
    assert.match(toolResultText(second, 'call_overwrite'), /^Overwrote db\.secret\.yaml/);
    assert.equal(readFileSync(join(cwd, 'db.secret.yaml'), 'utf8'), 'password: hunter2\n');
  });
});
