import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { offeredToolName } from '../../src/mcp/tool-names.ts';

// The names MCP tools are offered under stay valid tool names for the providers.

describe('offered MCP tool names', () => {
  it('stay within 64 characters of [a-zA-Z0-9_-] when de-duplicated, however many collide', () => {
    const taken = new Set<string>();
    const names = Array.from({ length: 12 }, (_, n) => offeredToolName('s'.repeat(40), `${'t'.repeat(40)}${'x'.repeat(n)}`, taken));
    assert.equal(new Set(names).size, names.length, `unique: ${names.join(', ')}`);
    for (const name of names) assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/, `${name} (${name.length} characters)`);
  });
});
