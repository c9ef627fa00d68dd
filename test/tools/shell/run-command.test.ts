import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createRunCommandTool, describeCommand, type RunCommandOptions } from '../../../src/tools/shell/run-command.ts';
import { groupGoneWithin, livingMembersOf, livingWith } from './group-processes.ts';

const workspace = mkdtempSync(join(tmpdir(), 'sylvan-run-command-'));
after(() => rmSync(workspace, { recursive: true, force: true }));

function runner(options: Partial<RunCommandOptions> = {}) {
  const tool = createRunCommandTool({ workspaceRoot: workspace, graceMs: 500, ...options });
  return (input: { command: string; timeout_seconds?: number }, abortSignal?: AbortSignal): Promise<string> =>
    (tool.execute as (input: unknown, options: unknown) => Promise<string>)(input, { toolCallId: 'call-1', messages: [], abortSignal });
}

/** The first progress report matching `pattern`, or a failure after `withinMs`. */
function progressMatching(pattern: RegExp, withinMs: number) {
  let resolveMatch: (match: RegExpExecArray) => void = () => {};
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    resolveMatch = resolve;
    setTimeout(() => reject(new Error(`no progress matching ${pattern} within ${withinMs} ms`)), withinMs).unref();
  });
  const onProgress = (_id: string, text: string) => {
    const match = pattern.exec(text);
    if (match) resolveMatch(match);
  };
  return { matched, onProgress };
}

describe('run_command', { timeout: 30_000 }, () => {
  test('returns the exit code, stdout and stderr, run in the workspace', async () => {
    const result = await runner()({ command: 'pwd; echo out; echo err >&2; exit 3' });
    assert.match(result, /^exit code 3 \(/);
    assert.match(result, new RegExp(`stdout:\\n${workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\nout\\n`));
    assert.match(result, /stderr:\nerr$/);
  });

  test('stdin is empty: a command reading it ends at once', async () => {
    const result = await runner()({ command: 'cat; echo "read done"', timeout_seconds: 5 });
    assert.match(result, /^exit code 0/);
    assert.match(result, /read done/);
  });

  test('1 MB of output reaches the model as head and tail with a note on what was cut', async () => {
    const result = await runner()({ command: 'for i in $(seq 1 20000); do echo "line $i of the long output............"; done' });
    assert.ok(result.length < 9_000, `${result.length} characters`);
    assert.match(result, /line 1 of the long output/);
    assert.match(result, /line 20000 of the long output/);
    assert.ok(!result.includes('line 10000 of'), 'the middle was kept');
    assert.match(result, /\[… [\d,]+ bytes \([\d,]+ lines\) cut from the middle of [\d,]+ bytes …\]/);
  });

  test('the environment has none of Sylvan\'s keys and settings, nor anything named like a credential', async () => {
    const environment = {
      PATH: process.env.PATH,
      DASHSCOPE_API_KEY: 'sk-dash-111',
      OPENAI_API_KEY: 'sk-open-222',
      TAVILY_API_KEY: 'tvly-333',
      BRAVE_API_KEY: 'brave-444',
      SYLVAN_MODEL: 'secret-model-555',
      GITHUB_TOKEN: 'ghp-666',
      AWS_SECRET: 'aws-777',
      stripe_key: 'sk-live-888',
      VISIBLE_SETTING: 'visible-999',
    };
    const result = await runner({ environment })({ command: 'env' });
    for (const [name, value] of Object.entries(environment)) {
      if (name === 'PATH' || name === 'VISIBLE_SETTING') continue;
      assert.ok(!result.includes(value!), `${name}'s value reached the output`);
      assert.ok(!result.includes(`${name}=`), `${name} is in the environment`);
    }
    assert.match(result, /VISIBLE_SETTING=visible-999/);
  });

  test('sleep 100 is stopped at its timeout with its whole process group, and the output so far is kept', async () => {
    const started = Date.now();
    const result = await runner()({ command: 'echo "group $$"; sleep 100 & sleep 100; echo never', timeout_seconds: 1 });
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    assert.match(result, /^timed out after 1 s and was stopped/);
    assert.ok(!result.includes('never'));
    const group = Number(/group (\d+)/.exec(result)?.[1]);
    assert.ok(group > 0, result);
    assert.deepEqual(livingMembersOf(group), [], 'processes of the command are still running');
  });

  test('an interrupt stops the command and everything it started, and the call fails', async () => {
    const controller = new AbortController();
    const progress = progressMatching(/group (\d+)/, 10_000);
    const call = runner({ onProgress: progress.onProgress })({ command: 'echo "group $$"; sleep 100 & sleep 100' }, controller.signal);
    call.catch(() => {});
    const group = Number((await progress.matched)[1]);
    assert.ok(livingMembersOf(group).length > 0, 'the command was not running');
    controller.abort(new Error('The user interrupted.'));
    await assert.rejects(call, /interrupted/);
    assert.deepEqual(livingMembersOf(group), [], 'processes of the command are still running');
  });

  test('a process left in the background is stopped when the command ends', async () => {
    const result = await runner()({ command: 'echo "group $$"; (sleep 100 > /dev/null 2>&1 &); echo done' });
    assert.match(result, /^exit code 0/);
    const group = Number(/group (\d+)/.exec(result)?.[1]);
    await groupGoneWithin(group, 3_000);
  });

  // Failure 3 of issue 22: a descendant that calls setsid left the group and outlived every kill.
  test('a setsid grandchild is gone when the command ends, without a sandbox too', async () => {
    const token = `${process.pid}${Date.now() % 100_000}`;
    const result = await runner()({ command: `setsid sleep 7${token} > /dev/null 2>&1 & sleep 0.2; echo started` });
    assert.match(result, /^exit code 0/);
    assert.deepEqual(livingWith(`sleep 7${token}`), [], 'the setsid grandchild outlived its command');
  });

  test('a setsid grandchild is gone at the timeout', async () => {
    const token = `${process.pid}${Date.now() % 100_000}`;
    const result = await runner()({ command: `setsid sleep 8${token} > /dev/null 2>&1 & sleep 100`, timeout_seconds: 1 });
    assert.match(result, /^timed out/);
    assert.deepEqual(livingWith(`sleep 8${token}`), []);
  });

  test('a process that ignores SIGTERM is killed after the grace period', async () => {
    const started = Date.now();
    const result = await runner({ graceMs: 300 })({ command: `echo "group $$"; trap '' TERM; sleep 100`, timeout_seconds: 1 });
    const group = Number(/group (\d+)/.exec(result)?.[1]);
    assert.deepEqual(livingMembersOf(group), []);
    assert.ok(Date.now() - started < 5_000);
  });

  test('live output is reported as the latest lines while the command runs', async () => {
    const progress = progressMatching(/second/, 10_000);
    const controller = new AbortController();
    const call = runner({ onProgress: progress.onProgress })({ command: 'echo first; echo second; sleep 100' }, controller.signal);
    call.catch(() => {});
    const match = await progress.matched;
    assert.equal(match.input, 'first\nsecond');
    controller.abort();
    await assert.rejects(call);
  });

  test('the approval preview shows the exact command, control characters visible, the folder, and the capped timeout', () => {
    const preview = describeCommand(workspace, { command: 'echo \x1b[31mred; rm -rf x', timeout_seconds: 100_000 });
    assert.equal(preview.summary, 'run_command echo ␛[31mred; rm -rf x');
    assert.ok(!preview.preview.includes('\x1b'));
    assert.match(preview.preview, /^\$ echo ␛\[31mred; rm -rf x\n/);
    assert.ok(preview.preview.includes(`in ${workspace}`));
    assert.match(preview.preview, /stops after 600 s/);
  });
});
