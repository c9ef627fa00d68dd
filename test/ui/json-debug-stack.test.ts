import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonEventLine } from '../../src/ui/print/json-event-line.ts';

// A --json turn-end carries the stack trace only with SYLVAN_DEBUG=1.

describe('a --json line', () => {
  test('carries a turn-end stack only when asked to (SYLVAN_DEBUG=1)', () => {
    const end = { type: 'turn-end' as const, reason: 'error', message: 'failed', debug: 'Error: x\n    at y' } as never;
    assert.equal((JSON.parse(jsonEventLine(end, false)) as { debug?: string }).debug, undefined);
    assert.equal((JSON.parse(jsonEventLine(end, true)) as { debug?: string }).debug, 'Error: x\n    at y');
  });
});
