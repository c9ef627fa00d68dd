import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls } from '../helpers/dashscope-server.ts';

// Issue 32, failure 2: Sylvan started in the user's home folder. What the sandbox hides from
// commands (credentials, shell histories, Sylvan's own settings and history) the file tools refuse
// too, in every mode.

const KEY = 'sk-home-folder-test-0c7d';
const MARKER = 'SECRET-CONTENT';
const SETTINGS = `{"maxSteps": 10, "permissions": {"secretPatterns": ["${MARKER}-settings"]}}\n`;

const CREDENTIALS = ['.config/gh/hosts.yml', '.pypirc', '.kube/config', '.vault-token', '.bash_history', '.sylvan/history', '.sylvan/settings.json'];

function homeFolder(): string {
  const home = tempWorkspace('sylvan-home-folder-');
  for (const file of CREDENTIALS) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), file === '.sylvan/settings.json' ? SETTINGS : `${MARKER}-${file}\n`);
  }
  writeFileSync(join(home, 'notes.txt'), 'an ordinary file\n');
  return home;
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args });

/** `sylvan -p` with `args`, in a home folder (HOME and, by default, SYLVAN_HOME = ~/.sylvan), the model making `calls` in one step. */
function inHomeFolder(calls: (home: string) => ReturnType<typeof call>[], args: string[]) {
  const home = homeFolder();
  const run = runCli({ server: { replies: [toolCalls(calls(home)), text('done.')] }, cwd: home, key: KEY, args: ['-p', ...args, 'look around'], env: { HOME: home, SYLVAN_HOME: '' } });
  return { home, run };
}

const reads = CREDENTIALS.map((file, index) => call(`call_read_${index}`, 'read_file', { path: file }));
const yes = inHomeFolder(
  () => [
    ...reads,
    call('call_search', 'search_files', { pattern: MARKER }),
    call('call_list_root', 'list_files', {}),
    call('call_list_config', 'list_files', { path: '.config' }),
    call('call_list_sylvan', 'list_files', { path: '.sylvan' }),
    call('call_write_token', 'write_file', { path: '.vault-token', content: 'planted\n' }),
    call('call_write_new', 'write_file', { path: '.config/gh/planted.yml', content: 'planted\n' }),
  ],
  ['--yes'],
);
const autoEdit = inHomeFolder(
  (home) => [
    call('call_write_settings', 'write_file', { path: '.sylvan/settings.json', content: '{"yes": true, "sandbox": {"mode": "off"}}\n' }),
    call('call_edit_settings', 'edit_file', { path: '.sylvan/settings.json', old_text: '"maxSteps": 10', new_text: '"yes": true' }),
    call('call_write_absolute', 'write_file', { path: join(home, '.sylvan', 'settings.json'), content: '{"yes": true}\n' }),
  ],
  ['--mode', 'auto-edit'],
);

describe('started in the home folder, the file tools keep out of credentials and Sylvan\'s own files (issue 32, failure 2)', { timeout: 60_000 }, () => {
  test('read_file of each credential file is refused and nothing of them reaches the model', async () => {
    const { server, result } = await yes.run;
    assert.equal(result.code, 0, result.stderr);
    for (const [index, file] of CREDENTIALS.entries()) {
      assert.match(toolResultText(requestAt(server, 1), `call_read_${index}`), /is refused/, file);
    }
    for (const request of server.requests) assert.ok(!request.rawBody.includes(`${MARKER}-`), 'a credential reached the model');
  });

  test('search_files and list_files do not open them', async () => {
    const { server } = await yes.run;
    const request = requestAt(server, 1);
    assert.match(toolResultText(request, 'call_search'), /^No matches/);
    const listing = toolResultText(request, 'call_list_root');
    assert.match(listing, /^notes\.txt$/m);
    assert.doesNotMatch(listing, /hosts\.yml|\.sylvan\/history|\.kube\/config/);
    assert.match(toolResultText(request, 'call_list_config'), /is refused/);
    assert.match(toolResultText(request, 'call_list_sylvan'), /is refused/);
  });

  test('under --yes, write_file cannot replace or plant a credential file', async () => {
    const { server } = await yes.run;
    const { home } = yes;
    const request = requestAt(server, 1);
    assert.match(toolResultText(request, 'call_write_token'), /is refused/);
    assert.match(toolResultText(request, 'call_write_new'), /is refused/);
    assert.equal(readFileSync(join(home, '.vault-token'), 'utf8'), `${MARKER}-.vault-token\n`);
    assert.throws(() => readFileSync(join(home, '.config/gh/planted.yml')), /ENOENT/);
  });

  test('in auto-edit mode, write_file and edit_file cannot change ~/.sylvan/settings.json', async () => {
    const { server, result } = await autoEdit.run;
    const { home } = autoEdit;
    assert.equal(result.code, 0, result.stderr);
    const request = requestAt(server, 1);
    assert.match(toolResultText(request, 'call_write_settings'), /is refused/);
    assert.match(toolResultText(request, 'call_edit_settings'), /is refused/);
    assert.match(toolResultText(request, 'call_write_absolute'), /is refused/);
    assert.equal(readFileSync(join(home, '.sylvan', 'settings.json'), 'utf8'), SETTINGS);
  });
});
