import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cleanCliEnvironment } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { killAtEnd } from '../helpers/children.ts';

// The README's way to use Sylvan on your own project, as a newcomer types it: `npm install -g .` in
// the clone, then `sylvan` in another folder. The install goes to a temp prefix (not the machine's
// global folder), offline, and without the package's `prepare` (the suite has just built dist/, as
// the README's `npm install` did); the command then runs from that prefix's bin on the PATH.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const QUESTION = 'what files are here?';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = killAtEnd(spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test("the README's global install gives a sylvan command that works on the folder it is started in", { timeout: 180_000 }, async () => {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  assert.match(readme, /^npm install -g \. /m, 'the README installs from the clone with `npm install -g .`');
  assert.ok(readme.includes(`\`sylvan -p "${QUESTION}"\``), 'the README asks the question this test asks');

  const home = tempWorkspace('sylvan-global-home-');
  const prefix = join(home, 'global');
  const myProject = tempWorkspace('sylvan-my-project-');
  writeFileSync(join(myProject, 'only-in-my-project.txt'), 'mine\n');
  const env = { ...cleanCliEnvironment(home), PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };

  const installed = await run('npm', ['install', '-g', '.', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: projectRoot, env });
  assert.equal(installed.code, 0, `npm install -g . failed: ${installed.stderr}`);
  assert.equal(realpathSync(join(prefix, 'bin', 'sylvan')), join(projectRoot, 'bin', 'sylvan.js'), 'the command is a link into the clone');

  const answered = await run('sylvan', ['-p', QUESTION], { cwd: myProject, env });
  assert.equal(answered.code, 0, answered.stderr);
  assert.match(answered.stderr, /list_files/, 'the mock model listed the files');
  assert.match(answered.stdout, /only-in-my-project\.txt/, 'it answered about the folder it was started in');
  assert.doesNotMatch(answered.stdout, /package\.json|tsconfig/, "not about Sylvan's own clone");
});
