import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentText, conversationOf, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startDashScopeServer, text, toolCalls, type DashScopeServer, type Reply } from '../helpers/dashscope-server.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';
import { EVERYTHING, writeUserSettings } from './mcp-helpers.ts';

// The real @modelcontextprotocol/server-everything (installed version: prompts simple-prompt,
// args-prompt <city> [state], resource-prompt <resourceType> <resourceId>; resources
// demo://resource/static/document/*.md, and demo://resource/dynamic/{text,blob}/N by template).
// Not trusted: its tools would ask, reading its resources does not.

const KEY = 'sk-sylvan-mcp-prompts-5e1c';
const DOCUMENT = 'demo://resource/static/document/architecture.md';
/** Any sign of an approval question on screen. */
const QUESTION = /❯ y {2}Yes|\[y\]es/;

/** The last user message a request carries. */
const lastUserText = (server: DashScopeServer, index: number) =>
  contentText(conversationOf(requestAt(server, index)).filter((message) => message.role === 'user').at(-1)?.content);

function workspace(): string {
  const cwd = tempWorkspace('sylvan-mcp-prompts-');
  writeUserSettings(cwd, { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
  return cwd;
}

describe('MCP prompts and resources in a terminal, against server-everything', () => {
  it('a prompt runs as /everything:NAME (arguments typed or asked for), @everything: completes and attaches a resource, the model reads one without a question, /mcp names them', { timeout: 120_000 }, async () => {
    const replies: Reply[] = [
      text('回答一。'),
      text('回答二。'),
      text('回答三。'),
      toolCalls([
        { id: 'call_list', name: 'list_mcp_resources', arguments: { server: 'everything' } },
        { id: 'call_read', name: 'read_mcp_resource', arguments: { server: 'everything', uri: 'demo://resource/dynamic/text/7' } },
      ]),
      text('读完了。'),
    ];
    const model = closeAtEnd(await startDashScopeServer({ respond: (_request, index) => replies[Math.min(index, replies.length - 1)]!, apiKey: KEY }));
    const cwd = workspace();
    const terminal = await startTerminal({ cwd, env: dashscopeEnv(model, { DASHSCOPE_API_KEY: KEY, SYLVAN_MAX_RETRIES: '0' }), columns: 120 });
    try {
      await terminal.expectScreen(/^›/m, 'the first prompt');

      // Typed at once: the REPL waits (bounded) for a server that is still starting.
      terminal.type('/everything:args-prompt Paris');
      terminal.keys('Enter');
      await terminal.expectScreen(/回答一。/, 'the answer to the first prompt');
      assert.equal(lastUserText(model, 0), "What's weather in Paris?");
      assert.match(await terminal.screen(), /\/everything:args-prompt · the MCP server's prompt, sent as your message:\n {2}│ What's weather in Paris\?/);

      terminal.type('/everything:args-prompt');
      terminal.keys('Enter');
      await terminal.expectScreen(/city \(Name of the city\): *$/m, 'the question for the missing argument');
      terminal.type('Lyon');
      terminal.keys('Enter');
      await terminal.expectScreen(/回答二。/, 'the answer to the second prompt');
      assert.equal(lastUserText(model, 1), "What's weather in Lyon?");

      terminal.type('summarise @everything:');
      terminal.keys('Tab');
      await terminal.expectScreen(/summarise @everything:demo:\/\/resource\/static\/document\/ *\n[\s\S]*everything:demo:\/\/resource\/static\/document\/features\.md/, 'the common part of the resources, and the list');
      terminal.type('arc');
      terminal.keys('Tab');
      await terminal.expectScreen(/summarise @everything:demo:\/\/resource\/static\/document\/architecture\.md *$/m, 'the resource completed');
      terminal.keys('Enter');
      await terminal.expectScreen(/回答三。/, 'the answer about the resource');
      const attached = lastUserText(model, 2);
      assert.ok(attached.startsWith(`summarise @everything:${DOCUMENT}\n\n<resource server="everything" uri="${DOCUMENT}">\n# Everything Server – Architecture`), attached.slice(0, 300));
      assert.match(await terminal.screen(), new RegExp(`attached everything:${DOCUMENT.replace(/[/.]/g, '\\$&')}`));

      terminal.type('which resources are there?');
      terminal.keys('Enter');
      await terminal.expectScreen(/读完了。/, 'the answer after the resource tools');
      const request = requestAt(model, 4);
      assert.match(toolResultText(request, 'call_list'), new RegExp(`everything: 7 resources\\n {2}${DOCUMENT.replace(/[/.]/g, '\\$&')} {2}architecture\\.md · text/markdown`));
      assert.match(toolResultText(request, 'call_read'), /^Resource 7: This is a plaintext resource created at /);
      assert.doesNotMatch(await terminal.screen({ history: true }), QUESTION, 'reading a resource asked nothing');

      terminal.type('/mcp');
      terminal.keys('Enter');
      const screen = await terminal.expectScreen(/resources {2}architecture\.md/, '/mcp naming the resources');
      assert.match(screen, /everything {2}ready {2}stdio · \d+ tools · 4 prompts · 7 resources/);
      assert.match(screen, /^ {4}tools {6}echo, /m);
      assert.match(screen, /^ {4}prompts {4}simple-prompt, args-prompt <city> \[state\], /m);
    } finally {
      await terminal.close();
    }
  });
});

describe('MCP prompts in print mode, against server-everything', () => {
  const ask = (prompt: string, replies: Reply[] = [text('好。')]) =>
    runCli({ inProcess: true, server: { replies }, key: KEY, cwd: workspace(), args: ['-p', prompt], killAfterMs: 60_000 });
  const named = ask('/everything:args-prompt state=TX Paris');
  const missing = ask('/everything:args-prompt');
  const embedded = ask('/everything:resource-prompt Blob 2');

  it('arguments by name and position fill the prompt; its text goes to the model and, sanitised, to stderr', { timeout: 60_000 }, async () => {
    const { server, result } = await named;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(lastUserText(server, 0), "What's weather in Paris, TX?");
    assert.match(result.stderr, /\/everything:args-prompt · the MCP server's prompt, sent as your message:\n {2}│ What's weather in Paris, TX\?/);
    assert.equal(result.stdout.trim(), '好。');
  });

  it('a missing required argument is one line and exit 2; the model is never asked', { timeout: 60_000 }, async () => {
    const { server, result } = await missing;
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr.trim(), '/everything:args-prompt needs city (Name of the city): /everything:args-prompt <city> [state]');
    assert.equal(server.requests.length, 0);
  });

  it("a prompt's embedded resource is inlined as text (a text/plain blob decoded)", { timeout: 60_000 }, async () => {
    const { server, result } = await embedded;
    assert.equal(result.code, 0, result.stderr);
    const sent = lastUserText(server, 0);
    assert.match(sent, /^This prompt includes the Blob resource with id: 2\. Please analyze the following resource:\n\n<resource uri="demo:\/\/resource\/dynamic\/blob\/2">\nResource 2: This is a base64 blob created at .+\n<\/resource>$/);
  });
});
