import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { listResourcesSpec, readResourceSpec } from '../../src/mcp/resource-tool-specs.ts';
import { BUILT_IN_SPECS, builtInSpec } from '../../src/tools/registry/built-in-specs.ts';
import { createTools } from '../../src/tools/registry/create-tools.ts';
import { delegates, onlyReads, type ToolSpec } from '../../src/tools/tool-spec.ts';

/** Every built-in tool the registry makes, with the web family switched on (the sample backend, no network) and a skill, so `skill` is offered. */
const registered = createTools({
  workspaceRoot: process.cwd(),
  weather: 'sample',
  secretPatterns: [],
  toolTimeoutMs: 1_000,
  search: { backend: 'sample', tavilyBaseUrl: '', braveBaseUrl: '', fetchEnabled: true, allowPrivateAddresses: false },
  subagents: { agents: [], run: async () => '' },
  skills: [{ name: 'pdf', description: 'PDF forms', folder: '/nonexistent/pdf', source: '.claude/skills', owner: 'project' }],
});

describe('every tool declares what it is', () => {
  test('each registered tool has a spec under its own name, and each spec a registered tool', () => {
    for (const name of Object.keys(registered)) assert.equal(builtInSpec(name)?.name, name, `${name} has no spec`);
    assert.deepEqual(BUILT_IN_SPECS.map((spec) => spec.name).sort(), Object.keys(registered).sort());
  });

  test('a tool that can change anything declares the scope of its approval', () => {
    const specs: ToolSpec[] = [...Object.keys(registered).map((name) => builtInSpec(name)!), listResourcesSpec, readResourceSpec];
    const unscoped = specs.filter((spec) => !onlyReads(spec) && !delegates(spec) && spec.scope === undefined).map((spec) => spec.name);
    assert.deepEqual(unscoped, [], 'these tools may change something but declare no scope: approval would fall back to asking per tool');
  });

  test('what is checkpointed changes something; what plan mode offers only reads', () => {
    for (const spec of BUILT_IN_SPECS) {
      if (spec.checkpoint) assert.ok(!onlyReads(spec), `${spec.name} is checkpointed but declared read-only`);
    }
    assert.deepEqual(
      BUILT_IN_SPECS.filter((spec) => !onlyReads(spec) && !delegates(spec)).map((spec) => spec.name).sort(),
      ['edit_file', 'run_command', 'write_file'],
    );
  });
});
