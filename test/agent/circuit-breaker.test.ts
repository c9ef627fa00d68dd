import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callSignature } from '../../src/agent/loop/call-signature.ts';
import { CircuitBreaker, DEFAULT_BREAKER_THRESHOLDS } from '../../src/agent/loop/circuit-breaker.ts';

const breaker = (overrides = {}) => new CircuitBreaker({ ...DEFAULT_BREAKER_THRESHOLDS, ...overrides });
/** A step of one call: its verdict, `{}` when it runs as it is. */
const oneCall = (watch: CircuitBreaker, toolName: string, input: unknown): { stop?: string; note?: string } => watch.judgeStep([{ toolCallId: 'call', toolName, input }]).get('call') ?? {};
/** Read through a call, so an earlier `assert.equal(…, undefined)` does not narrow it for good. */
const patternOf = (watch: CircuitBreaker) => watch.tripped?.pattern;

describe('near-identical calls', () => {
  test('argument order, spacing and numbers do not make a call new', () => {
    assert.equal(callSignature('run_command', { command: 'sleep  3', cwd: '.' }), callSignature('run_command', { cwd: '.', command: 'sleep 4' }));
    assert.notEqual(callSignature('run_command', { command: 'sleep 3' }), callSignature('run_command', { command: 'sleep x' }));
  });

  test('the call that reaches the threshold gets a note; the next such call is refused and trips the breaker', () => {
    const watch = breaker({ nearIdenticalCalls: 3 });
    assert.deepEqual(oneCall(watch, 'read_file', { path: 'a', offset: 1 }), {});
    assert.deepEqual(oneCall(watch, 'read_file', { path: 'a', offset: 81 }), {});
    const third = oneCall(watch, 'read_file', { offset: 161, path: 'a' });
    assert.match(third.note ?? '', /step 3 of this turn calling read_file .* Another such call ends the turn/);
    assert.equal(watch.tripped, undefined);
    const fourth = oneCall(watch, 'read_file', { path: 'a', offset: 241 });
    assert.match(fourth.stop ?? '', /^Not run: you called read_file in 4 steps/);
    assert.equal(patternOf(watch), 'near-identical');
  });
});

describe('a batch in one step', () => {
  test('sixteen alike edits in one step are one step, not sixteen repeats', () => {
    const watch = breaker();
    const edits = Array.from({ length: 16 }, (_, index) => ({ toolCallId: `e${index}`, toolName: 'edit_file', input: { path: 'lines.txt', old: `line ${index + 1}`, new: `LINE ${index + 1}` } }));
    assert.equal(watch.judgeStep(edits).size, 0);
    assert.equal(patternOf(watch), undefined);
  });
});

describe('cycles', () => {
  test('a cycle of three calls gone round twice is told; going on trips it, changing course does not', () => {
    const calls: [string, object][] = [['a', {}], ['b', { x: 'y' }], ['c', {}]];
    const goingOn = breaker();
    for (const [name, input] of [...calls, ...calls.slice(0, 2)]) assert.deepEqual(oneCall(goingOn, name, input), {});
    const sixth = oneCall(goingOn, 'c', {});
    assert.match(sixth.note ?? '', /repeat the same cycle \(a → b → c\)/);
    assert.ok(oneCall(goingOn, 'a', {}).stop);
    assert.equal(patternOf(goingOn), 'cycle');

    const changing = breaker();
    for (const [name, input] of [...calls, ...calls]) oneCall(changing, name, input);
    assert.deepEqual(oneCall(changing, 'd', {}), {});
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
