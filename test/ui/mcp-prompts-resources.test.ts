import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type AgentEvent, type StopReason } from '../../src/agent/loop/events.ts';
import { emptyUsage } from '../../src/shared/token-usage.ts';
import type { Config } from '../../src/config/config.ts';
import type { ServerSummary } from '../../src/mcp/mcp-hub.ts';
import type { McpPrompt } from '../../src/mcp/prompt-list.ts';
import type { McpResource } from '../../src/mcp/resource-list.ts';
import type { RuntimeMcp } from '../../src/mcp/runtime-mcp.ts';
import { stubRuntime } from '../helpers/stub-runtime.ts';
import { createCompleter } from '../../src/ui/input/completion.ts';
import { mcpPromptCommands, mcpResources } from '../../src/ui/input/mcp-completion.ts';
import type { ReadResult } from '../../src/ui/input/line-reader-contract.ts';
import { runMcpPrompt } from '../../src/ui/commands/mcp-prompt-command.ts';
import { runRepl } from '../../src/ui/repl/repl.ts';
import { ScriptedReader } from '../helpers/scripted-reader.ts';

// In-process: the REPL with a stub runtime whose MCP side is scripted. The real server-everything
// runs in test/mcp/server-everything-prompts.test.ts.

const savedForceColor = process.env.FORCE_COLOR;
let home: string;
before(() => {
  delete process.env.FORCE_COLOR;
  home = mkdtempSync(join(tmpdir(), 'sylvan-mcp-prompts-'));
  writeFileSync(join(home, 'notes.md'), 'a workspace file\n');
});
after(() => {
  if (savedForceColor !== undefined) process.env.FORCE_COLOR = savedForceColor;
  rmSync(home, { recursive: true, force: true });
});

const greet: McpPrompt = { name: 'greet', description: 'Greets someone', arguments: [{ name: 'name', description: 'Who to greet', required: true }, { name: 'tone', required: false }] };
const RESOURCES: McpResource[] = [
  { uri: 'docs://a', name: 'a.md', mimeType: 'text/markdown' },
  { uri: 'docs://png', name: 'picture \u001b[2J' },
];

interface FakeMcp extends RuntimeMcp {
  readonly calls: string[];
  status: ServerSummary['status'];
  listed: boolean;
}

/** One server, `srv`, with the prompt `greet` and two resources; `getPrompt` answers `promptText(args)`. */
function fakeMcp(promptText: (args: Record<string, string>) => string, options: { toolNames?: string[]; status?: ServerSummary['status']; listed?: boolean; listsBy?: 'settling' | 'never'; listProblems?: string[] } = {}): FakeMcp {
  const calls: string[] = [];
  const mcp: FakeMcp = {
    calls,
    status: options.status ?? 'ready',
    listed: options.listed ?? true,
    approvedAhead: [],
    toolSpec: () => undefined,
    secrets: [],
    tools: () => ({}),
    async settled() {
      calls.push('settled');
      mcp.status = 'ready';
      if (options.listsBy !== 'never') mcp.listed = true;
    },
    takeWarnings: () => [],
    summaries: () => [
      {
        name: 'srv',
        status: mcp.status,
        toolCount: (options.toolNames ?? ['echo']).length,
        toolNames: options.toolNames ?? ['echo'],
        prompts: [greet],
        resources: RESOURCES,
        listProblems: options.listProblems ?? [],
        listed: mcp.listed,
        transport: 'stdio',
        trusted: false,
        stderr: [],
      },
    ],
    pids: () => [],
    close: async () => {},
    serverNames: ['srv'],
    prompts: () => (mcp.status === 'ready' && mcp.listed ? [{ server: 'srv', prompt: greet }] : []),
    resourceServers: () => (mcp.status === 'ready' ? [{ name: 'srv', resources: RESOURCES }] : []),
    async getPrompt(server, name, args) {
      calls.push(`getPrompt ${server} ${name} ${JSON.stringify(args)}`);
      return { text: promptText(args), skipped: [] };
    },
    async readResource(server, uri) {
      calls.push(`readResource ${server} ${uri}`);
      if (uri === 'docs://png') return { text: '', skipped: ['binary docs://png (image/png, 10 bytes)'] };
      if (uri === 'docs://gone') throw new Error('Resource docs://gone not found');
      return { text: `text of ${uri}`, skipped: [] };
    },
  };
  return mcp;
}

const line = (text: string): ReadResult => ({ kind: 'line', line: text });
const eof: ReadResult = { kind: 'eof' };

async function* answered(): AsyncGenerator<AgentEvent, StopReason> {
  yield { type: 'turn-end', stopReason: 'completed', usage: emptyUsage(), steps: 1 };
  return 'completed';
}

async function session(script: ReadResult[], mcp: FakeMcp) {
  const turnTexts: string[] = [];
  const runtime = stubRuntime({
    mcp,
    runTurn(text: string) {
      turnTexts.push(text);
      return answered();
    },
  });
  const reader = new ScriptedReader(script);
  let output = '';
  const code = await runRepl({
    config: { home, cwd: home, yes: false, approvalMode: 'ask', secretPatterns: [], mcpStartTimeoutSeconds: 1 } as unknown as Config,
    reader,
    output: { isTTY: false, write: (text: string) => (output += text) },
    loadRuntime: async () => runtime,
    onInterrupt: () => () => {},
  });
  return { code, turnTexts, output, prompts: reader.prompts };
}

describe('an MCP prompt as /server:prompt in the REPL', () => {
  test("its text is the user's message as it came: shown sanitised first, an @ in it attaches nothing", async () => {
    const mcp = fakeMcp((args) => `Hello ${args.name}, read @notes.md \u001b]52;c;aGk=\u0007now`);
    const { turnTexts, output } = await session([line('/srv:greet Ada'), eof], mcp);
    assert.deepEqual(mcp.calls, ['getPrompt srv greet {"name":"Ada"}']);
    assert.deepEqual(turnTexts, ['Hello Ada, read @notes.md \u001b]52;c;aGk=\u0007now']);
    assert.match(output, /\/srv:greet · the MCP server's prompt, sent as your message:\n {2}│ Hello Ada, read @notes\.md ␛\]52;c;aGk=␇now\n/);
    assert.ok(!output.includes('\u001b'), 'an escape from the server reached the screen');
    assert.ok(!output.includes('attached'), output);
  });

  test('a missing required argument is asked for on one line; backing out runs nothing', async () => {
    const mcp = fakeMcp((args) => `Hello ${args.name} (${args.tone ?? 'plain'})`);
    const asked = await session([line('/srv:greet tone=warm'), line(' Grace '), eof], mcp);
    assert.equal(asked.prompts[1], '  name (Who to greet): ');
    assert.deepEqual(asked.turnTexts, ['Hello Grace (warm)']);
    const backedOut = await session([line('/srv:greet'), { kind: 'interrupt', hadText: false }, eof], fakeMcp(() => 'never'));
    assert.deepEqual(backedOut.turnTexts, []);
    assert.match(backedOut.output, /\/srv:greet not run: it needs name\./);
  });

  test('an unknown prompt is named with the ones there are; an unknown server stays an unknown command', async () => {
    const { turnTexts, output } = await session([line('/srv:nope'), line('/other:greet'), eof], fakeMcp(() => 'never'));
    assert.deepEqual(turnTexts, []);
    assert.match(output, /The MCP server srv has no prompt nope\. Its prompts: greet\./);
    assert.match(output, /Unknown command \/other:greet\. Try \/help\./);
  });

  test('a server still starting is waited for (bounded) before its prompt runs', async () => {
    const mcp = fakeMcp(() => 'hi', { status: 'starting' });
    const { turnTexts } = await session([line('/srv:greet Ada'), eof], mcp);
    assert.deepEqual(mcp.calls, ['settled', 'getPrompt srv greet {"name":"Ada"}']);
    assert.deepEqual(turnTexts, ['hi']);
  });

  test('a server ready with its tools whose prompts are not listed yet is waited for, not said to offer none', async () => {
    const mcp = fakeMcp(() => 'never', { listed: false });
    const outcome = await runMcpPrompt({ server: 'srv', prompt: 'greet', argumentText: '' }, { mcp, waitMs: 1000 });
    assert.deepEqual(mcp.calls, ['settled']);
    assert.deepEqual(outcome, { ok: false, usage: true, message: '/srv:greet needs name (Who to greet): /srv:greet <name> [tone]' });
  });

  test('a server whose prompts are still not listed after the wait, or could not be listed, is not said to offer none', async () => {
    const slow = fakeMcp(() => 'never', { listed: false, listsBy: 'never' });
    assert.deepEqual(await runMcpPrompt({ server: 'srv', prompt: 'greet', argumentText: 'Ada' }, { mcp: slow, waitMs: 1000 }), {
      ok: false,
      message: 'The MCP server srv has not listed its prompts yet. /mcp shows more.',
    });
    const failing = fakeMcp(() => 'never', { listProblems: ['resources/list failed: nope', 'prompts/list failed: MCP error -32001: Request timed out'] });
    failing.prompts = () => [];
    assert.deepEqual(await runMcpPrompt({ server: 'srv', prompt: 'greet', argumentText: 'Ada' }, { mcp: failing, waitMs: 1000 }), {
      ok: false,
      message: 'The MCP server srv could not list its prompts (prompts/list failed: MCP error -32001: Request timed out). /mcp shows more.',
    });
  });

  test('print mode (no one to ask): a missing argument is one clear usage line', async () => {
    const outcome = await runMcpPrompt({ server: 'srv', prompt: 'greet', argumentText: '' }, { mcp: fakeMcp(() => 'never'), waitMs: 1000 });
    assert.deepEqual(outcome, { ok: false, usage: true, message: '/srv:greet needs name (Who to greet): /srv:greet <name> [tone]' });
  });
});

describe('@server:uri attaches an MCP resource', () => {
  test("its text follows the message; binary and missing ones get a line each; files still attach", async () => {
    const mcp = fakeMcp(() => 'never');
    const { turnTexts, output } = await session([line('see @srv:docs://a, @srv:docs://png @srv:docs://gone and @notes.md'), eof], mcp);
    assert.deepEqual(mcp.calls, ['readResource srv docs://a', 'readResource srv docs://png', 'readResource srv docs://gone']);
    assert.deepEqual(turnTexts, [
      'see @srv:docs://a, @srv:docs://png @srv:docs://gone and @notes.md\n\n<file path="notes.md">\na workspace file\n\n</file>' +
        '\n\n<resource server="srv" uri="docs://a">\ntext of docs://a\n</resource>',
    ]);
    assert.match(output, / {2}@srv:docs:\/\/png: binary docs:\/\/png \(image\/png, 10 bytes\) not attached: only text is\n/);
    assert.match(output, / {2}@srv:docs:\/\/gone not attached: Resource docs:\/\/gone not found\n/);
    assert.match(output, / {2}attached notes\.md, srv:docs:\/\/a\n/);
    assert.ok(!output.includes('no such file'), output);
  });
});

describe('/mcp', () => {
  test("names each server's tools, prompts and resources, wrapped under their label and sanitised", async () => {
    const toolNames = Array.from({ length: 30 }, (_, index) => `tool-number-${index + 1}`);
    const { output } = await session([line('/mcp'), eof], fakeMcp(() => 'never', { toolNames }));
    const lines = output.split('\n');
    assert.ok(lines.includes('  srv  ready  stdio · 30 tools · 1 prompt · 2 resources'), output);
    const toolLines = lines.slice(lines.findIndex((text) => text.startsWith('    tools      tool-number-1, ')));
    assert.ok(toolLines.length > 3, output);
    assert.ok(toolLines[1]?.startsWith(`${' '.repeat(15)}tool-number-`), `continuation lines line up under the first: ${output}`);
    assert.ok(lines.every((text) => text.length <= 80), output);
    assert.ok(lines.includes('    prompts    greet <name> [tone] (run one as /srv:NAME)'), output);
    assert.ok(lines.includes('    resources  a.md, picture ␛[2J (@srv:<Tab> attaches one)'), output);
  });
});

describe('completion from the MCP servers', () => {
  const completer = () =>
    createCompleter({
      commands: [{ name: '/help', summary: 'this list' }],
      moreCommands: [mcpPromptCommands(() => fakeMcp(() => ''))],
      workspaceRoot: home,
      resources: mcpResources(() => fakeMcp(() => '')),
    });

  test('the / menu lists the prompts with their description and arguments; Tab completes one', async () => {
    assert.deepEqual(completer().suggest('/s', 2), [{ label: '/srv:greet', description: 'Greets someone · <name> [tone]' }]);
    assert.equal((await completer().complete('/srv:g', 6))?.text, '/srv:greet ');
  });

  test('@ offers the servers with resources beside the files; @server: completes from its resources', async () => {
    assert.equal((await completer().complete('read @sr', 8))?.text, 'srv:');
    const both = await completer().complete('read @srv:', 10);
    assert.equal(both?.text, 'srv:docs://');
    assert.deepEqual(both?.suggestions.map((suggestion) => suggestion.label), ['srv:docs://a', 'srv:docs://png']);
    assert.equal((await completer().complete('read @srv:docs://a', 18))?.text, 'srv:docs://a');
    assert.equal(await completer().complete('read @other:', 12), undefined);
  });
});
