import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { AgentEvent, StopReason } from '../../src/agent/loop/events.ts';
import { notifyWhenLong } from '../../src/runtime/long-turn-notification.ts';
import { text } from '../helpers/dashscope-server.ts';
import { signal, withDeadline } from '../helpers/deadline.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

// When a long turn ends in the REPL, the Notification hooks hear that Sylvan waits for the user
// (`idle_prompt`, Claude Code's name), so a notifier set up for the approval prompt covers it too.

const KEY = 'sk-hooks-long-turn-6f2a';

/** A loopback receiver for an `http` hook: each POSTed body, as it arrives. */
const posted = signal<Record<string, unknown>>();
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    posted.fire(JSON.parse(body) as Record<string, unknown>);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
});
const listening = new Promise<number>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as AddressInfo).port)));
after(() => receiver.close());

/** A turn of one event that ends with `stopReason`, `ms` of the fake clock after it started. */
function turnTaking(ms: number, stopReason: StopReason, clock: { now: number }): AsyncGenerator<AgentEvent, StopReason> {
  return (async function* () {
    clock.now += ms;
    yield { type: 'turn-end', stopReason, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }, steps: 1 } as AgentEvent;
    return stopReason;
  })();
}

/** Hooks that record each run instead of running anything. */
function recordingHooks(listening = true) {
  const runs: { event: string; subject: string | undefined; fields: Record<string, unknown> }[] = [];
  return {
    runs,
    listens: () => listening,
    run: async (event: string, subject: string | undefined, fields: Record<string, unknown>) => {
      runs.push({ event, subject, fields });
      return { context: [], notes: [] };
    },
  };
}

async function drain(events: AsyncGenerator<AgentEvent, StopReason>): Promise<StopReason> {
  while (true) {
    const next = await events.next();
    if (next.done) return next.value;
  }
}

describe('a Notification at the end of a long turn', { timeout: 60_000 }, () => {
  test('a REPL turn past the threshold (notifyAfter in settings) runs the Notification hooks with idle_prompt and a message', async () => {
    const port = await listening;
    const cwd = tempWorkspace('sylvan-long-turn-');
    mkdirSync(join(cwd, '.sylvan-home'));
    writeFileSync(
      join(cwd, '.sylvan-home', 'settings.json'),
      JSON.stringify({ notifyAfter: 0, hooks: { Notification: [{ matcher: 'idle_prompt', hooks: [{ type: 'http', url: `http://127.0.0.1:${port}/notify` }] }] } }),
    );
    const { result } = await runCli({ inProcess: true, server: { replies: [text('Done at last.')] }, key: KEY, cwd, stdin: 'do the long thing\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Done at last\./);
    const input = await withDeadline(posted.fired, 20_000, 'the Notification hook to be run');
    assert.equal(input.hook_event_name, 'Notification');
    assert.equal(input.notification_type, 'idle_prompt');
    assert.match(String(input.message), /^Sylvan is waiting for your input \(the turn took \d+ s\)$/);
    assert.ok(typeof input.session_id === 'string' && input.cwd === cwd);
  });

  test('a turn under the threshold, one the user interrupted, and hooks that do not listen are left alone', async () => {
    const clock = { now: 1_000_000 };
    const hooks = recordingHooks();
    const options = { hooks, afterSeconds: 30, now: () => clock.now };
    assert.equal(await drain(notifyWhenLong(turnTaking(29_900, 'completed', clock), options)), 'completed');
    assert.equal(await drain(notifyWhenLong(turnTaking(45_000, 'aborted', clock), options)), 'aborted');
    assert.equal(hooks.runs.length, 0);
    const deaf = recordingHooks(false);
    await drain(notifyWhenLong(turnTaking(45_000, 'completed', clock), { ...options, hooks: deaf }));
    assert.equal(deaf.runs.length, 0);
    // At the threshold, whatever ended the turn but the user: a budget, an error, the model done.
    await drain(notifyWhenLong(turnTaking(30_000, 'cost-budget', clock), options));
    await drain(notifyWhenLong(turnTaking(61_400, 'completed', clock), options));
    assert.deepEqual(
      hooks.runs.map((run) => [run.event, run.subject, run.fields.notification_type, run.fields.message]),
      [
        ['Notification', 'idle_prompt', 'idle_prompt', 'Sylvan is waiting for your input (the turn took 30 s)'],
        ['Notification', 'idle_prompt', 'idle_prompt', 'Sylvan is waiting for your input (the turn took 61 s)'],
      ],
    );
  });
});
