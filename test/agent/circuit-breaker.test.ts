import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callSignature } from '../../src/agent/call-signature.ts';
import { CircuitBreaker, DEFAULT_BREAKER_THRESHOLDS } from '../../src/agent/circuit-breaker.ts';

const breaker = (overrides = {}) => new CircuitBreaker({ ...DEFAULT_BREAKER_THRESHOLDS, ...overrides });
/** Read through a call, so an earlier `assert.equal(…, undefined)` does not narrow it for good. */
const patternOf = (watch: CircuitBreaker) => watch.tripped?.pattern;

describe('near-identical calls', () => {
  test('argument order, spacing and numbers do not make a call new', () => {
    assert.equal(callSignature('run_command', { command: 'sleep  3', cwd: '.' }), callSignature('run_command', { cwd: '.', command: 'sleep 4' }));
    assert.notEqual(callSignature('run_command', { command: 'sleep 3' }), callSignature('run_command', { command: 'sleep x' }));
  });

  test('the call that reaches the threshold gets a note; the next such call is refused and trips the breaker', () => {
    const watch = breaker({ nearIdenticalCalls: 3 });
    assert.deepEqual(watch.beforeCall('read_file', { path: 'a', offset: 1 }), {});
    assert.deepEqual(watch.beforeCall('read_file', { path: 'a', offset: 81 }), {});
    const third = watch.beforeCall('read_file', { offset: 161, path: 'a' });
    assert.match('note' in third ? (third.note ?? '') : '', /call number 3 of read_file .* Another such call ends the turn/);
    assert.equal(watch.tripped, undefined);
    const fourth = watch.beforeCall('read_file', { path: 'a', offset: 241 });
    assert.match('stop' in fourth ? fourth.stop : '', /^Not run: you called read_file 4 times/);
    assert.equal(patternOf(watch), 'near-identical');
  });
});

describe('cycles', () => {
  test('a cycle of three calls gone round twice is told; going on trips it, changing course does not', () => {
    const calls: [string, object][] = [['a', {}], ['b', { x: 'y' }], ['c', {}]];
    const goingOn = breaker();
    for (const [name, input] of [...calls, ...calls.slice(0, 2)]) assert.deepEqual(goingOn.beforeCall(name, input), {});
    const sixth = goingOn.beforeCall('c', {});
    assert.match('note' in sixth ? (sixth.note ?? '') : '', /repeat the same cycle \(a → b → c\)/);
    assert.ok('stop' in goingOn.beforeCall('a', {}));
    assert.equal(patternOf(goingOn), 'cycle');

    const changing = breaker();
    for (const [name, input] of [...calls, ...calls]) changing.beforeCall(name, input);
    assert.deepEqual(changing.beforeCall('d', {}), {});
    assert.equal(changing.tripped, undefined);
  });
});

describe('the same failure', () => {
  test('told at the third, tripped at the fourth; successes and other errors do not count', () => {
    const watch = breaker();
    assert.equal(watch.afterCall('run_command', true, 'exit code 1 (0.1 s)\nstderr:\nno such file'), undefined);
    assert.equal(watch.afterCall('run_command', false, 'exit code 0 (0.1 s)'), undefined);
    assert.equal(watch.afterCall('run_command', true, 'exit code 2 (0.1 s)\nstderr:\nsomething else'), undefined);
    assert.equal(watch.afterCall('run_command', true, 'exit code 1 (0.3 s)\nstderr:\nno such file'), undefined);
    assert.match(watch.afterCall('run_command', true, 'exit code 1 (1.2 s)\nstderr:\nno  such file') ?? '', /failed the same way 3 times/);
    assert.equal(watch.tripped, undefined);
    watch.afterCall('run_command', true, 'exit code 1 (0.2 s)\nstderr:\nno such file');
    assert.equal(patternOf(watch), 'same-failure');
  });
});

describe('steps without progress', () => {
  test('told after four steps with nothing new, tripped at the fifth; a new result starts the count again', () => {
    const watch = breaker();
    assert.equal(watch.afterStep('', ['status: pending (0.1 s)']), undefined);
    for (let step = 0; step < 3; step++) assert.equal(watch.afterStep('', [`status: pending (${step}.2 s)`]), undefined);
    assert.match(watch.afterStep('', ['status: pending (9 s)']) ?? '', /the last 4 steps brought no new result and no new text/);
    assert.equal(watch.afterStep('Checking again.', ['status: done']), undefined);
    assert.equal(watch.tripped, undefined);
    for (let step = 0; step < 4; step++) watch.afterStep('Checking again.', ['status: done']);
    assert.equal(watch.tripped, undefined);
    watch.afterStep('', ['status: done']);
    assert.equal(patternOf(watch), 'no-progress');
  });

  test('a number that changes in a result is news: a counter going up is progress', () => {
    const watch = breaker();
    for (let step = 0; step < 10; step++) assert.equal(watch.afterStep('', [`downloaded ${step * 10}%`]), undefined);
    assert.equal(watch.tripped, undefined);
  });
});
