import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadAgentCatalogue } from '../../src/agents/agent-catalogue.ts';
import { parseAgentFile } from '../../src/agents/agent-file.ts';
import { agentToolNames } from '../../src/agents/agent-tools.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';

const file = (lines: string[]) => lines.join('\n');

describe('agent definition files', () => {
  test("Qwen Code's form reads unchanged: a YAML list of tools under its key, its tool names mapped", () => {
    const parsed = parseAgentFile(
      file(['---', 'name: tester', 'description: "Writes tests"', 'tools:', '  - read_file', '  - run_shell_command', 'maxTurns: 7', '---', 'Write tests.']),
      '.qwen/agents/tester.md',
      true,
    );
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.definition.tools, ['read_file', 'run_shell_command']);
    assert.equal(parsed.definition.maxTurns, 7);
    assert.equal(parsed.definition.prompt, 'Write tests.');
    assert.deepEqual(agentToolNames(parsed.definition, ['read_file', 'write_file', 'run_command', 'task']), ['read_file', 'run_command']);
  });

  test('an agent file only narrows: a tool the session does not offer (plan mode, no such server) is not granted, and task never is', () => {
    const parsed = parseAgentFile(
      file(['---', 'name: wide', 'description: wants everything', 'tools: [Bash, Write, mcp__github__create_issue, task]', 'disallowedTools: Read', '---', '']),
      '.sylvan/agents/wide.md',
      true,
    );
    assert.ok(parsed.ok);
    assert.deepEqual(agentToolNames(parsed.definition, ['read_file', 'list_files', 'task']), []);
    assert.deepEqual(agentToolNames({ ...parsed.definition, tools: undefined }, ['read_file', 'list_files', 'task']), ['list_files']);
  });

  test('a broken file is named with what is wrong and not used; the user\'s file wins over the project\'s of the same name', () => {
    const workspace = tempWorkspace('sylvan-agents-');
    const home = tempWorkspace('sylvan-agents-home-');
    mkdirSync(join(workspace, '.sylvan', 'agents'), { recursive: true });
    mkdirSync(join(home, 'agents'), { recursive: true });
    writeFileSync(join(workspace, '.sylvan', 'agents', 'helper.md'), file(['---', 'name: helper', 'description: project', '---', 'project prompt']));
    writeFileSync(join(home, 'agents', 'helper.md'), file(['---', 'name: helper', 'description: user', '---', 'user prompt']));
    writeFileSync(join(workspace, '.sylvan', 'agents', 'broken.md'), file(['---', 'name: broken', 'maxTurns: many', '---']));
    const catalogue = loadAgentCatalogue(workspace, home);
    assert.equal(catalogue.agents.get('helper')?.prompt, 'user prompt');
    assert.equal(catalogue.agents.get('helper')?.fromProject, false);
    assert.ok(catalogue.agents.has('explore') && catalogue.agents.has('general'));
    assert.equal(catalogue.agents.has('broken'), false);
    assert.deepEqual(catalogue.notes, ['agent file .sylvan/agents/broken.md is not used: it has no description']);
  });
});
