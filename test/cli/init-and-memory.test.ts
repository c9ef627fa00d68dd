import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { contentText, requestAt } from '../helpers/chat-requests.ts';
import { runCli, type CliOptions, type ServerRun } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';

/** The CLI in this process against a loopback DashScope, in `cwd` with its own home folder (`~/.claude/skills`) outside it. */
function inProcessAgentServer(folders: { cwd: string; home: string }, key: string, replies: Reply[], options: CliOptions = {}): Promise<ServerRun> {
  return runCli({ inProcess: true, server: { replies }, key, cwd: folders.cwd, ...options, env: { HOME: folders.home, SYLVAN_SANDBOX: 'off', ...options.env } });
}

const KEY = 'sk-test-init-memory-2a9f31';
const AGENTS = '# Project notes\n\nBuild: npm run build. Test: npm test -- FILE.\n';

const systemPrompt = (request: RecordedRequest): string => contentText(request.body?.messages?.[0]?.content);
const lastUserText = (request: RecordedRequest): string =>
  contentText(request.body?.messages?.filter((message) => message.role === 'user').at(-1)?.content);

const initReplies = [
  toolCalls([{ id: 'call_look', name: 'list_files', arguments: {} }]),
  toolCalls([{ id: 'call_write', name: 'write_file', arguments: { path: 'AGENTS.md', content: AGENTS } }]),
  text('Wrote AGENTS.md.'),
];

describe('/init against a loopback model', () => {
  test('/init asks the model to explore and write AGENTS.md; unapproved, nothing is written', CLI_TEST_TIMEOUT, async () => {
    const folders = { cwd: tempWorkspace('sylvan-init-'), home: tempWorkspace() };
    const { server, result } = await inProcessAgentServer(folders, KEY, initReplies, { stdin: '/init\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(lastUserText(requestAt(server, 0)), /^Explore this project with the read-only tools first[\s\S]*write AGENTS\.md at the workspace root with write_file/);
    assert.equal(existsSync(join(folders.cwd, 'AGENTS.md')), false, 'AGENTS.md was written without approval');
  });

  test('approved, /init writes AGENTS.md, and the next session has it in its system prompt', CLI_TEST_TIMEOUT, async () => {
    const folders = { cwd: tempWorkspace('sylvan-init-'), home: tempWorkspace() };
    const first = await inProcessAgentServer(folders, KEY, initReplies, { args: ['--yes'], stdin: '/init\n/undo\n/redo\n' });
    assert.equal(first.result.code, 0, first.result.stderr);
    assert.equal(readFileSync(join(folders.cwd, 'AGENTS.md'), 'utf8'), AGENTS);
    assert.match(first.result.stdout, /AGENTS\.md removed \(it did not exist before\)[\s\S]*AGENTS\.md restored/, 'the write was checkpointed: /undo reversed it');
    const next = await inProcessAgentServer(folders, KEY, [text('ok')], { args: ['-p', 'hi'] });
    assert.match(systemPrompt(requestAt(next.server, 0)), /<instructions source="AGENTS\.md">\n# Project notes\n\nBuild: npm run build\./);
  });

  test('with an AGENTS.md there, /init asks for changes as an edit', CLI_TEST_TIMEOUT, async () => {
    const folders = { cwd: tempWorkspace('sylvan-init-'), home: tempWorkspace() };
    writeFileSync(join(folders.cwd, 'AGENTS.md'), AGENTS);
    const { server } = await inProcessAgentServer(folders, KEY, [text('ok')], { stdin: '/init\n' });
    assert.match(lastUserText(requestAt(server, 0)), /already has an AGENTS\.md: read it, then propose improvements to it with edit_file/);
  });
});

describe('/memory against a loopback model', () => {
  test('/memory add asks which file, then for the write: unapproved (a pipe cannot ask), nothing changes', CLI_TEST_TIMEOUT, async () => {
    const folders = { cwd: tempWorkspace('sylvan-memory-'), home: tempWorkspace() };
    const { server, result } = await inProcessAgentServer(folders, KEY, [text('ok')], { stdin: '/memory add Use pnpm, not npm\np\nhello\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Remember "Use pnpm, not npm" in the project's AGENTS\.md or yours \(\$SYLVAN_HOME\/AGENTS\.md\)\? \[p\]roject \/ \[u\]ser/);
    assert.match(result.stdout, /✗ AGENTS\.md was not changed: write_file needs the user's approval, and Sylvan's input is a pipe/);
    assert.equal(existsSync(join(folders.cwd, 'AGENTS.md')), false);
    assert.equal(systemPrompt(requestAt(server, 0)).includes('pnpm'), false);
  });

  test("approved, /memory add and a # line append to the project's and the user's file, and the next request carries both", CLI_TEST_TIMEOUT, async () => {
    const folders = { cwd: tempWorkspace('sylvan-memory-'), home: tempWorkspace() };
    writeFileSync(join(folders.cwd, 'AGENTS.md'), AGENTS);
    const { server, result } = await inProcessAgentServer(folders, KEY, [text('first'), text('second')], {
      args: ['--yes'],
      stdin: 'before\n/memory add Use pnpm, not npm\np\n# Answer in British English\nu\nafter\n/memory\n',
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(join(folders.cwd, 'AGENTS.md'), 'utf8'), `${AGENTS}- Use pnpm, not npm\n`);
    const userFile = join(folders.cwd, '.sylvan-home', 'AGENTS.md');
    assert.equal(readFileSync(userFile, 'utf8'), '- Answer in British English\n');
    assert.equal(systemPrompt(requestAt(server, 0)).includes('pnpm'), false);
    const after = systemPrompt(requestAt(server, 1));
    assert.match(after, /<instructions source="AGENTS\.md">[\s\S]*- Use pnpm, not npm\n<\/instructions>/);
    assert.match(after, /<instructions source="\$SYLVAN_HOME\/AGENTS\.md">\n- Answer in British English\n<\/instructions>/);
    assert.match(result.stdout, new RegExp(`^ {2}\\$SYLVAN_HOME/AGENTS\\.md {2}${userFile.replace(/[.$/]/g, '\\$&')} · 28 bytes$`, 'm'), '/memory shows each file with its path and size');
  });
});
