import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startDashScopeServer, text, toolCalls, type DashScopeServer, type Responder, type ScriptedToolCall } from '../helpers/dashscope-server.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

const run = (id: string, command: string): ScriptedToolCall => ({ id, name: 'run_command', arguments: { command } });

/** Each user line brings one step of calls; after their results, "done.". */
function responder(steps: Record<string, ScriptedToolCall[]>): Responder {
  return (request) => {
    const last = request.body?.messages?.at(-1);
    const calls = last?.role === 'user' ? steps[String(last.content)] : undefined;
    return calls ? toolCalls(calls) : text('done.');
  };
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd } });

async function open(server: DashScopeServer, workspace: string, home: string): Promise<Terminal> {
  const terminal = await startTerminal({ cwd: workspace, env: { ...dashscopeEnv(server), SYLVAN_HOME: home, SYLVAN_MAX_RETRIES: '0' }, args: ['--yes'], columns: 200 });
  after(() => terminal.close());
  await terminal.expect(/› /, 'the first prompt');
  return terminal;
}

/** Types a line, waits for what it brings and the next prompt; resolves with what the CLI wrote meanwhile. */
async function say(terminal: Terminal, line: string, next: RegExp, what: string): Promise<string> {
  const from = terminal.output.length;
  const seen = terminal.expect(next, what);
  terminal.type(`${line}\r`);
  await seen;
  return terminal.output.slice(from).replace(/\r/g, '');
}

const DONE = /done\.[\s\S]*› /;
const UNDONE = /\/redo takes this back[\s\S]*› /;

/** Processes whose working folder is `folder` (a git left running there, say). */
function processesIn(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === folder) found.push(readFileSync(`/proc/${entry}/cmdline`, 'latin1').replace(/\0/g, ' '));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}

describe('/undo after commands tells the truth', { timeout: 180_000 }, () => {
  test('exact bytes and mode come back, a folder swapped for a link out comes back as a folder, a file over 20 MB is left out and said, same-file calls of one step take turns', async () => {
    const workspace = tempWorkspace('sylvan-undo-truth-');
    const outside = tempWorkspace('sylvan-undo-truth-outside-');
    writeFileSync(join(outside, 'one.txt'), 'outside, not to be touched\n');
    git(workspace, 'init', '-q');
    writeFileSync(join(workspace, '.gitattributes'), '* text=auto\n');
    const crlf = Buffer.from('first\r\nsecond\r\n');
    writeFileSync(join(workspace, 'crlf.txt'), crlf);
    mkdirSync(join(workspace, 'data', 'deep'), { recursive: true });
    writeFileSync(join(workspace, 'data', 'one.txt'), 'data one\n');
    writeFileSync(join(workspace, 'data', 'deep', 'two.txt'), 'data two\n');
    git(workspace, 'add', '.');
    git(workspace, 'commit', '-q', '-m', 'first');
    writeFileSync(join(workspace, 'private.txt'), 'private\n', { mode: 0o600 });
    chmodSync(join(workspace, 'private.txt'), 0o600);
    writeFileSync(join(workspace, 'lines.txt'), Array.from({ length: 16 }, (_, index) => `line ${index + 1}\n`).join(''));
    writeFileSync(join(workspace, 'log.txt'), 'start\n');
    const home = tempWorkspace('sylvan-undo-truth-home-');
    const server = closeAtEnd(
      await startDashScopeServer({
        respond: responder({
          rewrite: [run('call_rewrite', "printf 'new\\n' > crlf.txt; chmod 644 private.txt; printf 'more\\n' >> private.txt")],
          swap: [run('call_swap', `rm -rf data && ln -s ${outside} data`)],
          big: [run('call_big', 'head -c 21000000 /dev/zero > big.bin')],
          edits: Array.from({ length: 16 }, (_, index) => ({
            id: `call_edit_${index + 1}`,
            name: 'edit_file',
            arguments: { path: 'lines.txt', old_text: `line ${index + 1}\n`, new_text: `LINE ${index + 1}\n` },
          })),
          appends: [run('call_a', 'echo a >> log.txt'), run('call_b', 'echo b >> log.txt')],
        }),
      }),
    );
    const terminal = await open(server, workspace, home);

    // 7: a file whose line endings `text=auto` would change, and a 0600 file, come back exactly.
    await say(terminal, 'rewrite', DONE, 'the command that rewrites');
    assert.equal(statSync(join(workspace, 'private.txt')).mode & 0o777, 0o644);
    const undoRewrite = await say(terminal, '/undo', UNDONE, 'the undo of the rewrite');
    assert.match(undoRewrite, /crlf\.txt restored\n/);
    assert.match(undoRewrite, /private\.txt restored\n/);
    assert.deepEqual(readFileSync(join(workspace, 'crlf.txt')), crlf);
    assert.deepEqual(readFileSync(join(workspace, 'private.txt'), 'utf8'), 'private\n');
    assert.equal(statSync(join(workspace, 'private.txt')).mode & 0o777, 0o600);

    // 8: the folder comes back as a real folder inside the workspace; nothing is written through the link.
    await say(terminal, 'swap', DONE, 'the command that swaps the folder for a link');
    assert.ok(lstatSync(join(workspace, 'data')).isSymbolicLink());
    const undoSwap = await say(terminal, '/undo', UNDONE, 'the undo of the swap');
    assert.doesNotMatch(undoSwap, /could not be restored/);
    assert.ok(lstatSync(join(workspace, 'data')).isDirectory(), 'data is not a real folder again');
    assert.equal(readFileSync(join(workspace, 'data', 'one.txt'), 'utf8'), 'data one\n');
    assert.equal(readFileSync(join(workspace, 'data', 'deep', 'two.txt'), 'utf8'), 'data two\n');
    assert.equal(readFileSync(join(outside, 'one.txt'), 'utf8'), 'outside, not to be touched\n');
    assert.deepEqual(readdirSync(outside), ['one.txt']);
    // /redo empties the folder, then puts the link back; /undo once more brings the folder back.
    const redoSwap = await say(terminal, '/redo', /Redoing turn[\s\S]*› /, 'the redo of the swap');
    assert.doesNotMatch(redoSwap, /could not be restored/);
    assert.equal(readlinkSync(join(workspace, 'data')), outside);
    assert.deepEqual(readdirSync(outside), ['one.txt']);
    assert.equal(readFileSync(join(outside, 'one.txt'), 'utf8'), 'outside, not to be touched\n');
    await say(terminal, '/undo', UNDONE, 'the second undo of the swap');
    assert.equal(readFileSync(join(workspace, 'data', 'deep', 'two.txt'), 'utf8'), 'data two\n');

    // 9: a file over 20 MB is not copied into the shadow repository, and the user is told.
    const big = await say(terminal, 'big', DONE, 'the command that makes a 21 MB file');
    assert.match(big.replace(/\s+/g, ' '), /big\.bin is 21,000,000 bytes, over the checkpoint limit of 20 MB: what the command did to it cannot be undone/);
    const [session] = readdirSync(join(home, 'checkpoints'));
    const shadowBytes = execFileSync('du', ['-sk', join(home, 'checkpoints', session!, 'shadow.git')], { encoding: 'utf8' });
    assert.ok(Number.parseInt(shadowBytes, 10) < 2048, `the shadow repository takes ${shadowBytes.trim()} kB`);

    // 12: sixteen edits of one file in one step all land; two commands appending to one file are undone to a state it had.
    await say(terminal, 'edits', DONE, 'the sixteen edits');
    assert.equal(readFileSync(join(workspace, 'lines.txt'), 'utf8'), Array.from({ length: 16 }, (_, index) => `LINE ${index + 1}\n`).join(''));
    await say(terminal, 'appends', DONE, 'the two appending commands');
    assert.match(readFileSync(join(workspace, 'log.txt'), 'utf8'), /^start\n(a\nb|b\na)\n$/);
    await say(terminal, '/undo', UNDONE, 'the undo of the appends');
    assert.equal(readFileSync(join(workspace, 'log.txt'), 'utf8'), 'start\n');
    await say(terminal, '/undo', UNDONE, 'the undo of the edits');
    assert.equal(readFileSync(join(workspace, 'lines.txt'), 'utf8'), Array.from({ length: 16 }, (_, index) => `line ${index + 1}\n`).join(''));
    terminal.type('\x04');
    assert.equal(await terminal.exited(), 0);
  });

  test('a FIFO git would read stops checkpoints, said before the next change, which does not run; a deleted or locked shadow repository is said and recovered; no git outlives Sylvan', async () => {
    const workspace = tempWorkspace('sylvan-undo-faults-');
    git(workspace, 'init', '-q');
    writeFileSync(join(workspace, '.gitignore'), 'ignored/\n');
    git(workspace, 'add', '.');
    git(workspace, 'commit', '-q', '-m', 'first');
    const home = tempWorkspace('sylvan-undo-faults-home-');
    const server = closeAtEnd(
      await startDashScopeServer({
        respond: responder({
          fifo: [run('call_fifo', 'rm -f .gitignore && mkfifo .gitignore')],
          'after fifo': [run('call_after_fifo', 'echo x > after-fifo.txt')],
          one: [run('call_one', 'echo 1 > one.txt')],
          two: [run('call_two', 'echo 2 > two.txt')],
          three: [run('call_three', 'echo 3 > three.txt')],
        }),
      }),
    );
    const terminal = await open(server, workspace, home);
    const shadow = () => join(home, 'checkpoints', readdirSync(join(home, 'checkpoints'))[0]!, 'shadow.git');

    // 10: the turn ends; the snapshot after it could not be taken, and that is said.
    const fifo = await say(terminal, 'fifo', DONE, 'the turn that makes .gitignore a FIFO');
    assert.match(fifo.replace(/\s+/g, ' '), /no checkpoint could be taken after the command, so \/undo cannot reverse it: \.gitignore is a FIFO/);
    const refused = await say(terminal, 'after fifo', DONE, 'the command after it');
    assert.match(refused.replace(/\s+/g, ' '), /Not done: no checkpoint could be taken first, so \/undo could not reverse it \(\.gitignore is a FIFO/);
    assert.ok(!existsSync(join(workspace, 'after-fifo.txt')), 'the command ran without a checkpoint');
    rmSync(join(workspace, '.gitignore'));
    writeFileSync(join(workspace, '.gitignore'), 'ignored/\n');

    // 11: the shadow repository deleted mid-session: said, and the next command is checkpointed again.
    await say(terminal, 'one', DONE, 'turn one');
    rmSync(shadow(), { recursive: true });
    const two = await say(terminal, 'two', DONE, 'turn two');
    assert.match(two.replace(/\s+/g, ' '), /the checkpoint of turn \d+ "one" is gone: its shadow repository was deleted/);
    const undoTwo = await say(terminal, '/undo', UNDONE, 'the undo of turn two');
    assert.match(undoTwo, /Undoing turn \d+ "two"/);
    assert.ok(!existsSync(join(workspace, 'two.txt')));
    // A lock left by a killed git does not stop the next checkpoint.
    writeFileSync(join(shadow(), 'index.lock'), '');
    await say(terminal, 'three', DONE, 'turn three');
    const undoThree = await say(terminal, '/undo', UNDONE, 'the undo of turn three');
    assert.match(undoThree, /Undoing turn \d+ "three"/);
    assert.ok(!existsSync(join(workspace, 'three.txt')));
    assert.equal(readFileSync(join(workspace, 'one.txt'), 'utf8'), '1\n', 'turn one had no checkpoint left to undo');
    terminal.type('\x04');
    assert.equal(await terminal.exited(), 0);
    assert.deepEqual(processesIn(workspace), []);
  });
});
