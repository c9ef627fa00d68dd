import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { cleanCliEnvironment, cliEntry } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { killAtEnd, processSlot } from '../helpers/children.ts';
import { startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';

// acpx, a headless ACP client from the npm registry, drives `sylvan --acp` to the end of a prompt:
// an editor's side we did not write. It needs Node 22.13 or later: this Node, or the node@22 that
// .ci/run installs for the suite's second pass.

const ACPX = fileURLToPath(new URL('../../node_modules/acpx/dist/cli.js', import.meta.url));
const NODE22 = join(process.env.SYLVAN_NODE22_DIR ?? join(homedir(), '.cache', 'sylvan-node22'), 'node_modules', '.bin', 'node');

function nodeForAcpx(): string | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 13)) return process.execPath;
  return existsSync(NODE22) ? NODE22 : undefined;
}

const node = nodeForAcpx();
const skip = !existsSync(ACPX)
  ? 'acpx is not installed (npm ci installs it as a dev dependency)'
  : node === undefined
    ? `acpx needs Node 22.13 or later; this is ${process.version} and ${NODE22} is missing (.ci/run installs it)`
    : false;

describe('a real ACP client (acpx) against sylvan --acp', { timeout: 60_000 }, () => {
  test('completes a prompt headless: a write approved by the client, made through its fs, and the answer', { skip }, async () => {
    const cwd = tempWorkspace('sylvan-acpx-');
    const server = closeAtEnd(
      await startDashScopeServer({ replies: [toolCalls([{ id: 'call_w', name: 'write_file', arguments: { path: 'greeting.txt', content: 'hello from the model\n' } }]), text('Wrote greeting.txt.')] }),
    );
    const release = await processSlot();
    const child = killAtEnd(
      spawn(node!, [ACPX, '--agent', `${node} ${cliEntry} --acp`, '--cwd', cwd, '--approve-all', '--format', 'text', 'exec', 'write a greeting'], {
        cwd,
        env: { ...cleanCliEnvironment(cwd), ...dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0' }) },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    child.once('close', release);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await withDeadline(new Promise<number | null>((resolve) => child.once('close', resolve)), 50_000, 'acpx to finish the prompt');
    assert.equal(code, 0, `acpx failed:\n${stdout}\n${stderr}`);
    assert.match(stdout, /Wrote greeting\.txt\./);
    assert.equal(readFileSync(join(cwd, 'greeting.txt'), 'utf8'), 'hello from the model\n');
    assert.match(toolResultText(requestAt(server, 1), 'call_w'), /Wrote greeting\.txt/);
  });
});
