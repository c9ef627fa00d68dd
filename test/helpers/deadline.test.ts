import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signal, withDeadline } from './deadline.ts';

describe('withDeadline', { timeout: 10_000 }, () => {
  test('passes the value on when the event comes in time', async () => {
    assert.equal(await withDeadline(Promise.resolve(42), 1_000, 'the answer'), 42);
  });

  test('fails with what never happened when it does not', async () => {
    const never = new Promise<void>(() => {});
    await assert.rejects(withDeadline(never, 50, 'the request to reach the server'), {
      message: 'Waited 0.1 s for the request to reach the server; it never happened.',
    });
  });

  test('passes a rejection on as it is', async () => {
    await assert.rejects(withDeadline(Promise.reject(new Error('boom')), 1_000, 'x'), { message: 'boom' });
  });
});

describe('signal', { timeout: 10_000 }, () => {
  test('settles on the first fire and remembers when', async () => {
    const arrival = signal<string>();
    assert.ok(Number.isNaN(arrival.firedAt));
    arrival.fire('first');
    const at = arrival.firedAt;
    arrival.fire('second');
    assert.equal(await arrival.fired, 'first');
    assert.equal(arrival.firedAt, at);
    assert.ok(at <= performance.now());
  });
});
