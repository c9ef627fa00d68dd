import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { hang, startDashScopeServer, text, toolCalls, type DashScopeServer } from '../helpers/dashscope-server.ts';
import { cliEntry, tempWorkspace, tsxLoader } from '../helpers/start-cli.ts';

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The REPL in a real pseudo-terminal (util-linux `script`), typed at like a person would. */
function startInTerminal(env: Record<string, string>, cwd: string) {
  // exec: no shell stays between script and node to catch the Ctrl-C and change the exit code.
  const command = `exec ${[process.execPath, '--import', tsxLoader, cliEntry].map(quote).join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, TERM: 'xterm', NO_COLOR: '1', SYLVAN_NO_NODE_WARNING: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  const waiters: { pattern: RegExp; from: number; resolve: () => void }[] = [];
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
    expect(pattern: RegExp, what: string): Promise<void> {
      const from = screen.length;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`never saw ${what}; the screen was:\n${screen}`)), 20_000);
        waiters.push({ pattern, from, resolve: () => (clearTimeout(timer), resolve()) });
        check();
      });
    },
    type: (keys: string) => child.stdin.write(keys),
    exited,
    kill: () => child.kill('SIGKILL'),
    get screen() {
      return screen;
    },
  };
}

let server: DashScopeServer | undefined;
after(() => server?.close());

test('Ctrl-C mid-answer returns to the prompt, and the next turn still has the earlier turns and tool results', async () => {
  const cwd = tempWorkspace();
  let hungRequestArrived: () => void = () => {};
  const hungRequest = new Promise<void>((resolve) => (hungRequestArrived = resolve));
  server = await startDashScopeServer({
    respond: (_request, index) => {
      if (index === 0) return toolCalls([{ id: 'call_calc_1', name: 'calculate', arguments: { expression: '(2+3)*4' } }]);
      if (index === 1) return text('The answer is 20.');
      if (index === 2) {
        hungRequestArrived();
        return hang({ headers: true, text: 'Let me think about that at great' });
      }
      return text('Here is the next answer.');
    },
  });
  const terminal = startInTerminal(
    { DASHSCOPE_API_KEY: 'test-key', DASHSCOPE_BASE_URL: server.baseURL, SYLVAN_HOME: join(cwd, '.home'), SYLVAN_MAX_RETRIES: '0' },
    cwd,
  );
  try {
    await terminal.expect(/› /, 'the first prompt');
    terminal.type('what is (2+3)*4?\r');
    await terminal.expect(/The answer is 20\.[\s\S]*› /, 'the first answer and a new prompt');

    terminal.type('tell me a long story\r');
    await hungRequest;
    await terminal.expect(/at great/, 'the start of the second answer');
    terminal.type('\x03');
    await terminal.expect(/Interrupted[\s\S]*› /, 'the interrupt line and the prompt again');

    terminal.type('and now?\r');
    await terminal.expect(/Here is the next answer\.[\s\S]*› /, 'the third answer');
    terminal.type('exit\r');
    assert.equal(await terminal.exited, 0);
  } catch (error) {
    terminal.kill();
    throw error;
  }

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
