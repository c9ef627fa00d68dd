import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommandLine } from '../../../src/config/flags.ts';
import { acpStopReason } from '../../../src/ui/acp/event-updates.ts';

test("an editor's turn ends with the ACP stop reason that says why", () => {
  assert.equal(acpStopReason('completed', 'stop'), 'end_turn');
  assert.equal(acpStopReason('aborted', undefined), 'cancelled');
  assert.equal(acpStopReason('max-steps', 'tool-calls'), 'max_turn_requests');
  assert.equal(acpStopReason('token-budget', 'stop'), 'max_tokens');
  assert.equal(acpStopReason('completed', 'length'), 'max_tokens');
  assert.equal(acpStopReason('completed', 'content-filter'), 'refusal');
  assert.equal(acpStopReason('repeated-call', 'tool-calls'), 'end_turn');
  assert.equal(acpStopReason('error', undefined), 'error');
});

test('sylvan --acp and sylvan acp serve an editor; print mode and resuming do not combine with it', () => {
  for (const argv of [['--acp'], ['acp'], ['--acp', '--model', 'qwen-plus']]) {
    const line = parseCommandLine(argv);
    assert.ok('mode' in line && line.mode.kind === 'acp', argv.join(' '));
  }
  assert.throws(() => parseCommandLine(['--acp', '-p', 'hi']), /cannot be combined with -p/);
  assert.throws(() => parseCommandLine(['--acp', '--continue']), /session\/load/);
  assert.throws(() => parseCommandLine(['acp', 'now']), /Unexpected argument/);
});
