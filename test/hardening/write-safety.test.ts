import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { writeFileAtomic } from '../../src/shared/atomic-write.ts';
import { createReadFileTool } from '../../src/tools/files/read-file.ts';
import { isSecretPath } from '../../src/shared/workspace-path.ts';
import { createWriteFileTool } from '../../src/tools/files/write-file.ts';
import { childScript } from '../helpers/child-script.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';


const callOptions = { toolCallId: 'call-1', messages: [], context: {} };
const write = (workspaceRoot: string, input: { path: string; content: string }) =>
  createWriteFileTool({ workspaceRoot }).execute(input, callOptions) as Promise<string>;
const read = (workspaceRoot: string, input: { path: string }) => createReadFileTool({ workspaceRoot }).execute(input, callOptions) as Promise<string>;

describe('writes are atomic (issue 9, item 2)', { timeout: 120_000 }, () => {
  test('a 100 MB write killed by SIGKILL, SIGTERM or SIGHUP leaves the old file or the new one, never a mix', async () => {
    const writerArgs = childScript(import.meta.resolve('./helpers/write-and-wait.js'), new URL('./helpers/write-and-wait.ts', import.meta.url));
    for (const signal of ['SIGKILL', 'SIGTERM', 'SIGHUP'] as const) {
      const workspace = tempWorkspace('sylvan-atomic-');
      writeFileSync(path.join(workspace, 'target.txt'), 'original\n');
      const writer = spawn(process.execPath, [...writerArgs, workspace, '100'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const safety = setTimeout(() => writer.kill('SIGKILL'), 60_000);
      writer.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        if (chunk.includes('writing')) writer.kill(signal);
      });
      await new Promise((resolve) => writer.on('close', resolve));
      clearTimeout(safety);
      const size = statSync(path.join(workspace, 'target.txt')).size;
      assert.ok(size === 'original\n'.length || size === 100_000_000, `${signal} left a ${size}-byte file`);
    }
  });

  test('the mode of the replaced file is kept, and a failed write leaves no temp file behind', async () => {
    const workspace = tempWorkspace('sylvan-atomic-');
    writeFileSync(path.join(workspace, 'script.sh'), 'echo old\n');
    chmodSync(path.join(workspace, 'script.sh'), 0o750);
    await write(workspace, { path: 'script.sh', content: 'echo new\n' });
    assert.equal(statSync(path.join(workspace, 'script.sh')).mode & 0o777, 0o750);
    mkdirSync(path.join(workspace, 'a-folder'));
    writeFileSync(path.join(workspace, 'a-folder', 'inside'), '');
    await assert.rejects(writeFileAtomic(path.join(workspace, 'a-folder'), 'x'));
    assert.deepEqual(readdirSync(workspace).sort(), ['a-folder', 'script.sh']);
  });
});

describe('more secret files, hard links, and links swapped in mid-write (issue 9, item 5)', { timeout: 60_000 }, () => {
  test('the extended list of secret files is refused', () => {
    const secrets = ['.env', '.env~', '#.env#', '.envrc', '.env.local', '.aws/credentials', 'home/.aws/config', '.git-credentials',
      '.docker/config.json', '.pgpass', '.netrc', 'credentials.json', 'credentials-prod.json', 'cert.p12', 'cert.pfx', 'release.keystore'];
    for (const secret of secrets) assert.equal(isSecretPath(secret), true, secret);
    for (const plain of ['.env.example', 'README.md', 'docker/config.json', 'src/aws.ts']) assert.equal(isSecretPath(plain), false, plain);
    assert.equal(isSecretPath('conf/prod.yaml', ['conf/*.yaml']), true);
  });

  test('a hard link to a file outside the workspace or to .env is refused for reading and writing', async () => {
    const workspace = tempWorkspace('sylvan-links-');
    const outside = tempWorkspace('sylvan-links-outside-');
    writeFileSync(path.join(outside, 'private.txt'), 'private-4411\n');
    writeFileSync(path.join(workspace, '.env'), 'KEY=sk-9\n');
    try {
      linkSync(path.join(outside, 'private.txt'), path.join(workspace, 'innocent.txt'));
    } catch (error) {
      assert.equal((error as NodeJS.ErrnoException).code, 'EXDEV');
      return;
    }
    linkSync(path.join(workspace, '.env'), path.join(workspace, 'env-copy.txt'));
    for (const name of ['innocent.txt', 'env-copy.txt']) {
      await assert.rejects(read(workspace, { path: name }), /hard link/);
      await assert.rejects(write(workspace, { path: name, content: 'x' }), /hard link/);
    }
    assert.equal(readFileSync(path.join(outside, 'private.txt'), 'utf8'), 'private-4411\n');
  });

  test('300 writes racing a folder swapped for a symbolic link out never land outside (bounded to 15 s)', async () => {
    const workspace = tempWorkspace('sylvan-race-');
    const outside = tempWorkspace('sylvan-race-outside-');
    const folder = path.join(workspace, 'd');
    const away = path.join(workspace, 'd-away');
    mkdirSync(folder);
    let racing = true;
    // Each state lasts a random few turns of the event loop, so writes meet every interleaving.
    const turns = async () => {
      for (let turn = Math.floor(Math.random() * 4); turn >= 0; turn--) await new Promise((resolve) => setImmediate(resolve));
    };
    const swapper = (async () => {
      while (racing) {
        await turns();
        try {
          renameSync(folder, away);
          symlinkSync(outside, folder);
          await turns();
          unlinkSync(folder);
          renameSync(away, folder);
        } catch {
          // A write's mkdir may have recreated the folder in between; the next round sorts it out.
          rmSync(folder, { recursive: true, force: true });
          if (existsSync(away)) renameSync(away, folder);
        }
      }
    })();
    const deadline = Date.now() + 15_000;
    let attempts = 0;
    for (; attempts < 300 && Date.now() < deadline; attempts++) {
      await Promise.allSettled(
        Array.from({ length: 3 }, (_, index) => write(workspace, { path: `d/file-${attempts}-${index}.txt`, content: 'PAYLOAD-RACE\n' })),
      );
    }
    racing = false;
    await swapper;
    const landedOutside = readdirSync(outside).filter((name) => readFileSync(path.join(outside, name), 'utf8').includes('PAYLOAD'));
    assert.deepEqual(landedOutside, [], `${landedOutside.join(" ")}: ${landedOutside.length} of ${attempts * 3} writes landed outside`);
    assert.ok(attempts >= 50, `only ${attempts} rounds ran`);
    // Whether any racing write got through is chance (each takes several turns of the event loop,
    // and a run once saw none of 900 succeed); that the tool writes at all once the race is over is not.
    await write(workspace, { path: 'd/after-the-race.txt', content: 'PAYLOAD-AFTER\n' });
    assert.equal(readFileSync(path.join(folder, 'after-the-race.txt'), 'utf8'), 'PAYLOAD-AFTER\n');
  });
});

describe('.git is not writable by the model (issue 9, item 6)', { timeout: 10_000 }, () => {
  test('.git/config and .git/hooks/* are refused, in any case and through a link', async () => {
    const workspace = tempWorkspace('sylvan-git-');
    mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
    symlinkSync(path.join(workspace, '.git'), path.join(workspace, 'gitdir'));
    for (const target of ['.git/config', '.git/hooks/pre-commit', '.GIT/hooks/post-checkout', 'gitdir/config', 'sub/.git/config']) {
      await assert.rejects(write(workspace, { path: target, content: '[core]\n\tfsmonitor = touch /tmp/owned\n' }), /\.git/, target);
    }
    assert.equal(readFileSync(path.join(workspace, '.git', 'config'), 'utf8'), '[core]\n');
    assert.deepEqual(readdirSync(path.join(workspace, '.git', 'hooks')), []);
    assert.match(await write(workspace, { path: '.gitignore', content: 'dist\n' }), /Wrote \.gitignore/);
  });
});
