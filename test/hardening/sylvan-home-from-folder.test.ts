import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { text, toolCalls } from '../helpers/dashscope-server.ts';
import { probeSandbox } from '../../src/sandbox/availability.ts';

// Issue 32, failure 1: a folder's .env names SYLVAN_HOME, the folder itself. Where Sylvan keeps its
// state (and what the sandbox hides) comes from the real environment only.

const KEY = 'sk-sylvan-home-test-5d2e';
const SETTINGS_KEY = 'sk-users-own-settings-key-93ab71';
const availability = probeSandbox();
const needsBwrap = availability.available ? false : `needs a working bubblewrap: ${availability.reason}`;

// Outside /tmp: the sandbox's /tmp is private, which would hide the home folder for another reason.
const base = mkdtempSync(join('/var/tmp', 'sylvan-home-env-'));
after(() => rmSync(base, { recursive: true, force: true }));
const home = join(base, 'home');
const project = join(base, 'project');
mkdirSync(join(home, '.sylvan'), { recursive: true });
writeFileSync(join(home, '.sylvan', 'settings.json'), JSON.stringify({ openaiApiKey: SETTINGS_KEY }));
mkdirSync(join(project, 'checkpoints', 'epoch-3'), { recursive: true });
writeFileSync(join(project, 'checkpoints', 'epoch-3', 'weights.bin'), 'the project\'s own model checkpoint\n');
writeFileSync(join(project, '.env'), `SYLVAN_HOME=${project}\n`);

// The user's settings key is redacted from tool output, so the command prints it reversed.
const run = runCli({ server: {
    replies: [
      toolCalls([{ id: 'call_write', name: 'write_file', arguments: { path: 'notes.txt', content: 'a change to checkpoint\n' } }]),
      toolCalls([{ id: 'call_read', name: 'run_command', arguments: { command: 'rev "$HOME/.sylvan/settings.json"; echo; echo ---end' } }]),
      text('done.'),
    ],
  }, cwd: project, key: KEY, args: ['-p', '--yes', 'go'], env: { HOME: home, SYLVAN_HOME: '' } });

// SYLVAN_HOME set in the real environment, elsewhere: ~/.sylvan (which may still hold the key) stays hidden too.
const elsewhere = join(base, 'elsewhere');
mkdirSync(elsewhere);
const runElsewhere = runCli({ server: {
    replies: [
      toolCalls([{ id: 'call_read', name: 'run_command', arguments: { command: 'rev "$HOME/.sylvan/settings.json"; echo; echo ---end' } }]),
      text('done.'),
    ],
  }, cwd: elsewhere, key: KEY, args: ['-p', '--yes', 'go'], env: { HOME: home, SYLVAN_HOME: join(base, 'configured-home') } });

const reversed = (value: string) => [...value].reverse().join('');

describe('SYLVAN_HOME in a folder\'s .env is ignored (issue 32, failure 1)', { timeout: 60_000 }, () => {
  test('sessions go to the real ~/.sylvan, not the folder, and the folder\'s checkpoints/ survives', async () => {
    const { result } = await run;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /SYLVAN_HOME in \.env .* was ignored/);
    assert.ok(!existsSync(join(project, 'sessions')), 'a session was written into the folder');
    assert.ok(readdirSync(join(home, '.sylvan', 'sessions')).some((name) => name.endsWith('.jsonl')), 'no session in ~/.sylvan');
    assert.deepEqual(readdirSync(join(project, 'checkpoints')), ['epoch-3']);
    assert.equal(readFileSync(join(project, 'checkpoints', 'epoch-3', 'weights.bin'), 'utf8'), 'the project\'s own model checkpoint\n');
  });

  test('a sandboxed command cannot read the key in the real ~/.sylvan/settings.json', { skip: needsBwrap }, async () => {
    const { server, result } = await run;
    assert.equal(result.code, 0, result.stderr);
    const output = toolResultText(requestAt(server, 2), 'call_read');
    assert.match(output, /---end/, output);
    assert.ok(!output.includes(reversed(SETTINGS_KEY)), output);
    assert.match(output, /No such file or directory/, output);
  });

  test('with SYLVAN_HOME elsewhere in the real environment, a command still cannot read ~/.sylvan', { skip: needsBwrap }, async () => {
    const { server, result } = await runElsewhere;
    assert.equal(result.code, 0, result.stderr);
    const output = toolResultText(requestAt(server, 1), 'call_read');
    assert.match(output, /---end/, output);
    assert.ok(!output.includes(reversed(SETTINGS_KEY)), output);
    assert.match(output, /No such file or directory/, output);
  });
});
