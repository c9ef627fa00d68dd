import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeSandbox } from '../../src/sandbox/availability.ts';
import { CommandSandbox } from '../../src/sandbox/command-sandbox.ts';
import { NetworkGrants } from '../../src/sandbox/network-grants.ts';
import { createRunCommandTool } from '../../src/tools/shell/run-command.ts';
import { livingWith } from '../tools/shell/group-processes.ts';
import { hostListener } from '../helpers/host-listener.ts';

const availability = probeSandbox();
const skip = availability.available ? false : `needs a working bubblewrap (the suite's .ci/run installs it): ${availability.reason}`;

// Outside /tmp: the sandbox's /tmp is its own, so a file there is hidden anyway and a write there never shows.
const root = mkdtempSync(join('/var/tmp', 'sylvan-sandbox-'));
const home = join(root, 'home');
const workspace = join(home, 'project');
const outside = join(root, 'outside');
mkdirSync(outside);
after(() => {
  rmSync(root, { recursive: true, force: true });
});
mkdirSync(join(home, '.ssh'), { recursive: true });
mkdirSync(join(home, '.sylvan'), { recursive: true });
mkdirSync(workspace, { recursive: true });
writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
writeFileSync(join(home, '.sylvan', 'settings.json'), '{"note": "SYLVAN-HOME-CONTENT"}\n');

function runner(network = false, grants?: NetworkGrants, root = workspace) {
  const sandbox = new CommandSandbox({
    settings: { mode: 'on', network, source: 'the test' },
    workspaceRoot: root,
    sylvanHome: join(home, '.sylvan'),
    environment: { ...process.env, HOME: home },
  });
  const tool = createRunCommandTool({ workspaceRoot: root, graceMs: 500, sandbox, networkGrants: grants, environment: { PATH: process.env.PATH, HOME: home } });
  return (command: string, toolCallId = 'call-1', timeout_seconds?: number): Promise<string> =>
    (tool.execute as (input: unknown, options: unknown) => Promise<string>)({ command, timeout_seconds }, { toolCallId, messages: [] });
}

describe('run_command in the bubblewrap sandbox', { skip, timeout: 60_000 }, () => {
  const host = hostListener({ before, after });

  test('the workspace is writable; a write outside it fails and nothing appears there', async () => {
    const result = await runner()(`echo inside > made.txt && cat made.txt; echo x > ${outside}/escaped.txt; echo "status $?"`);
    assert.match(result, /stdout:\ninside\nstatus 1/);
    assert.match(result, /Read-only file system/);
    assert.ok(existsSync(join(workspace, 'made.txt')));
    assert.ok(!existsSync(join(outside, 'escaped.txt')), 'the command wrote outside the workspace');
  });

  test('/tmp is private: what a command leaves there is not on the host', async () => {
    const name = `sylvan-private-${process.pid}`;
    await runner()(`echo x > /tmp/${name}`);
    assert.ok(!existsSync(join('/tmp', name)));
  });

  test('~/.ssh and $SYLVAN_HOME are hidden', async () => {
    const result = await runner()('cat ~/.ssh/id_rsa; ls -A ~/.ssh ~/.sylvan; cat ~/.sylvan/settings.json');
    assert.ok(!result.includes('PRIVATE-KEY-MATERIAL'), result);
    assert.ok(!result.includes('SYLVAN-HOME-CONTENT'), result);
    assert.match(result, /No such file or directory/);
  });

  test('run as root, it ends with no capabilities and cannot gain any', { skip: process.getuid?.() !== 0 && 'root only: a user\'s command has none to drop' }, async () => {
    const result = await runner()('grep -E "^(Cap(Eff|Prm|Amb)|NoNewPrivs):" /proc/self/status');
    for (const set of ['CapEff', 'CapPrm', 'CapAmb']) assert.match(result, new RegExp(`^${set}:\\s+0{16}$`, 'm'), result);
    // The bounding set stays full as bubblewrap leaves it for root, but no program can regain from it: no setuid, no file capabilities.
    assert.match(result, /^NoNewPrivs:\s+1$/m, result);
  });

  test('every credential folder and file under the home folder is hidden, not only ~/.ssh', async () => {
    const folders = ['.aws', '.config/gh', '.gnupg', '.docker', '.kube', '.azure', '.gcloud', '.oci', '.terraform.d', '.password-store', '.local/share/keyrings', '.mozilla'];
    const files = ['.netrc', '.npmrc', '.yarnrc', '.pypirc', '.git-credentials', '.pgpass', '.my.cnf', '.vault-token', '.boto', '.s3cfg', '.cargo/credentials.toml', '.m2/settings.xml', '.gradle/gradle.properties', '.bash_history', '.zsh_history', '.python_history', '.node_repl_history', '.psql_history', '.mysql_history'];
    for (const folder of folders) {
      mkdirSync(join(home, folder), { recursive: true });
      writeFileSync(join(home, folder, 'credentials'), `SECRET-IN-${folder}\n`);
    }
    for (const file of files) {
      mkdirSync(dirname(join(home, file)), { recursive: true });
      writeFileSync(join(home, file), `SECRET-IN-${file}\n`);
    }
    const paths = [...folders.map((folder) => `~/${folder}/credentials`), ...files.map((file) => `~/${file}`)];
    const result = await runner()(`cat ${paths.join(' ')} 2>/dev/null; echo ---end`);
    assert.match(result, /---end/);
    assert.doesNotMatch(result, /SECRET-IN-/, result);
  });

  test('a repository whose git folder lies elsewhere in the workspace (git init --separate-git-dir): that folder and the .git file pointing at it stay as they are', async () => {
    const separate = join(home, 'separate');
    mkdirSync(separate);
    execFileSync('git', ['init', '-q', '--separate-git-dir', join(separate, 'repository'), separate], { env: { PATH: process.env.PATH ?? '', HOME: home } });
    const pointer = readFileSync(join(separate, '.git'), 'utf8');
    const result = await runner(false, undefined, separate)(
      'echo "touch pwned" > repository/hooks/pre-commit; echo "hook $?"; echo "gitdir: /elsewhere" > .git; echo "pointer $?"; mv repository moved; echo "move $?"',
    );
    assert.match(result, /hook [1-9]\npointer [1-9]\nmove [1-9]/, result);
    assert.ok(!existsSync(join(separate, 'repository', 'hooks', 'pre-commit')));
    assert.equal(readFileSync(join(separate, '.git'), 'utf8'), pointer);
  });

  test('it sees none of the host\'s processes: its parent is the sandbox, whose environment is its own', async () => {
    const result = await runner()('echo "pid $$ parent $PPID"; ls /proc | grep -c "^[0-9]"; tr "\\0" "\\n" < /proc/$PPID/environ');
    assert.match(result, /pid \d parent 1\n/);
    assert.ok(!result.includes(`DASHSCOPE_API_KEY`));
    assert.ok(Number(/parent 1\n(\d+)/.exec(result)?.[1]) < 10, result);
  });

  test('a loopback listener on the host cannot be reached without the network, and can with it', async () => {
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${host.port} && head -1 <&3`;
    const without = await runner()(connect);
    assert.doesNotMatch(without, /hello from the host/);
    assert.match(without, /Connection refused|Network is unreachable|No such file/);
    assert.match(await runner(true)(connect), /hello from the host/);
  });

  test('"run with network" at the approval lets that one call reach the network, and only that one', async () => {
    const grants = new NetworkGrants();
    const run = runner(false, grants);
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${host.port} && head -1 <&3`;
    grants.grant('call-with-network', { command: connect });
    assert.match(await run(connect, 'call-with-network'), /hello from the host/);
    assert.doesNotMatch(await run(connect, 'call-with-network'), /hello from the host/, 'the grant was used up');
  });

  test('at the timeout, the sandbox and a setsid grandchild are gone', async () => {
    const token = `${process.pid}${Date.now() % 100_000}`;
    const result = await runner()(`setsid sleep 5${token} > /dev/null 2>&1 & sleep 100`, 'call-1', 1);
    assert.match(result, /^timed out after 1 s/);
    assert.deepEqual(livingWith(`sleep 5${token}`), []);
  });

  test('a setsid grandchild is gone when the command ends', async () => {
    const token = `${process.pid}${Date.now() % 100_000}`;
    const result = await runner()(`setsid sleep 6${token} > /dev/null 2>&1 & sleep 0.2; echo started`);
    assert.match(result, /^exit code 0/);
    assert.deepEqual(livingWith(`sleep 6${token}`), []);
  });

  test('a host socket that vanishes between the sandbox looking it up and mounting over it: the command runs once, not failing', async () => {
    const folder = mkdtempSync(join(root, 'service-'));
    const path = join(folder, 'service.sock');
    const service = createNetServer();
    await new Promise<void>((resolve) => service.listen(path, resolve));
    after(() => service.close());
    // The service removes its socket right after the first look-up, as one stopping at that moment would.
    class VanishingSocket extends CommandSandbox {
      private looked = 0;
      override wrap(...args: Parameters<CommandSandbox['wrap']>) {
        const invocation = super.wrap(...args);
        if (this.looked++ === 0) unlinkSync(path);
        return invocation;
      }
    }
    const sandbox = new VanishingSocket({ settings: { mode: 'on', network: false, source: 'the test' }, workspaceRoot: workspace, sylvanHome: join(home, '.sylvan'), environment: { ...process.env, HOME: home } });
    const tool = createRunCommandTool({ workspaceRoot: workspace, graceMs: 500, sandbox, environment: { PATH: process.env.PATH, HOME: home } });
    const result = await (tool.execute as (input: unknown, options: unknown) => Promise<string>)({ command: 'echo ran >> runs.txt; echo done' }, { toolCallId: 'call-1', messages: [] });
    assert.match(result, /^exit code 0[\s\S]*done/);
    assert.equal(readFileSync(join(workspace, 'runs.txt'), 'utf8'), 'ran\n', 'the command ran once');
  });

  test('a command that prints bubblewrap\'s mount failure itself, naming a path that is still there, is not run again', async () => {
    rmSync(join(workspace, 'runs.txt'), { force: true });
    const result = await runner()(`echo ran >> runs.txt; echo "bwrap: Can't create file at ${join(home, '.ssh')}: Read-only file system" >&2; exit 1`);
    assert.match(result, /^exit code 1/);
    assert.equal(readFileSync(join(workspace, 'runs.txt'), 'utf8'), 'ran\n');
  });
});
