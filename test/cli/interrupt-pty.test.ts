import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { killWhenDone, occupySlotNow } from '../helpers/children.ts';
import { hang, startDashScopeServer, text, toolCalls } from '../helpers/dashscope-server.ts';
import { signal, withDeadline } from '../helpers/deadline.ts';
import { closeAtEnd } from '../helpers/served.ts';
import { cliEntry, tempWorkspace, tsxLoader } from '../helpers/start-cli.ts';

/** How long any one thing on the screen may take to appear on a loaded machine: a safety net. */
const SCREEN_DEADLINE_MS = 60_000;

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The REPL in a real pseudo-terminal (util-linux `script`), typed at like a person would; `script`
 * is killed when the test ends (the CLI under it gets the terminal's hang-up).
 */
function startInTerminal(context: TestContext, env: Record<string, string>, cwd: string) {
  // One of the file's CLI process slots, like every CLI a test starts.
  const release = occupySlotNow();
  // exec: no shell stays between script and node to catch the Ctrl-C and change the exit code.
  const command = `exec ${[process.execPath, '--import', tsxLoader, cliEntry].map(quote).join(' ')}`;
  const child = killWhenDone(context, spawn('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, TERM: 'xterm', NO_COLOR: '1', SYLVAN_NO_NODE_WARNING: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  }));
  let screen = '';
  const waiters: { pattern: RegExp; from: number; resolve: () => void }[] = [];
  child.stdin.on('error', () => {});
  child.once('close', release);
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(screen.slice(waiter.from))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    check();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    /** Resolves when `pattern` appears in what is shown from now on; fails the test if it never does. */
    async expect(pattern: RegExp, what: string): Promise<void> {
      const from = screen.length;
      const seen = new Promise<void>((resolve) => {
        waiters.push({ pattern, from, resolve });
        check();
      });
      await withDeadline(seen, SCREEN_DEADLINE_MS, what).catch((error: Error) => {
        throw new Error(`${error.message} The screen was:\n${screen}`);
      });
    },
    type: (keys: string) => child.stdin.write(keys),
    exited: () => withDeadline(exited, SCREEN_DEADLINE_MS, 'the REPL to exit'),
  };
}

test('Ctrl-C mid-answer returns to the prompt, and the next turn still has the earlier turns and tool results', { timeout: 240_000 }, async (context) => {
  const cwd = tempWorkspace();
  const hungRequest = signal();
  const server = closeAtEnd(await startDashScopeServer({
    respond: (_request, index) => {
      if (index === 0) return toolCalls([{ id: 'call_calc_1', name: 'calculate', arguments: { expression: '(2+3)*4' } }]);
      if (index === 1) return text('The answer is 20.');
      if (index === 2) {
        hungRequest.fire();
        return hang({ headers: true, text: 'Let me think about that at great' });
      }
      return text('Here is the next answer.');
    },
  }));
  const terminal = startInTerminal(
    context,
    { DASHSCOPE_API_KEY: 'test-key', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_HOME: join(cwd, '.home'), SYLVAN_MAX_RETRIES: '0' },
    cwd,
  );
  await terminal.expect(/› /, 'the first prompt');
  terminal.type('what is (2+3)*4?\r');
  await terminal.expect(/The answer is 20\.[\s\S]*› /, 'the first answer and a new prompt');

  terminal.type('tell me a long story\r');
  await withDeadline(hungRequest.fired, SCREEN_DEADLINE_MS, 'the second question to reach the server');
  await terminal.expect(/at great/, 'the start of the second answer');
  terminal.type('\x03');
  await terminal.expect(/Interrupted[\s\S]*› /, 'the interrupt line and the prompt again');

  terminal.type('and now?\r');
  await terminal.expect(/Here is the next answer\.[\s\S]*› /, 'the third answer');
  terminal.type('exit\r');
  assert.equal(await terminal.exited(), 0);

  assert.equal(server.requests.length, 4);
  const last = server.requests[3]!;
  assert.equal(last.invalid, undefined);
  const messages = last.body?.messages ?? [];
  const users = messages.filter((message) => message.role === 'user').map((message) => message.content);
  assert.deepEqual(users, ['what is (2+3)*4?', 'tell me a long story', 'and now?']);
  const call = messages.find((message) => message.role === 'assistant' && message.tool_calls?.length);
  assert.equal(call?.tool_calls?.[0]?.function.name, 'calculate');
  const result = messages.find((message) => message.role === 'tool');
  assert.equal(result?.tool_call_id, call?.tool_calls?.[0]?.id);
  assert.match(String(result?.content), /20/);
});
