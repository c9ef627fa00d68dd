import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { startTerminal, type Terminal } from '../helpers/terminal.ts';

// A server slower to start than the limit (as `npx -y` is while it downloads): the user is told
// why it failed and how to give it longer, at the prompt, when it happens.

let terminal: Terminal | undefined;
after(() => terminal?.close());

describe('an MCP server that does not start in time', { timeout: 60_000 }, () => {
  test('says so above the prompt when it happens, with the real reason and how to raise the limit; /mcp keeps that reason', async () => {
    const cwd = tempWorkspace('sylvan-mcp-slow-');
    const home = join(cwd, '.home');
    mkdirSync(home, { recursive: true });
    // Starts, then never answers `initialize`: slow as a first download.
    const slow = { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60_000)'], trust: true };
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ mcpServers: { slow }, mcpStartTimeout: 1 }));
    terminal = await startTerminal({ cwd, env: { SYLVAN_HOME: home }, columns: 100, rows: 30 });
    await terminal.expectScreen(/^›$/m, 'the first prompt');
    terminal.type('half typed');
    // Nothing else typed: the line comes on its own, the input kept under it.
    const told = await terminal.expectScreen(/MCP server slow failed[\s\S]*^› half typed$/m, 'the failure above the prompt');
    const line = told.slice(told.indexOf('(MCP server slow')).replace(/\n(?!›)/g, ' ').split('\n')[0];
    assert.equal(
      line,
      '(MCP server slow failed: it timed out after 1 s starting (a first npx -y run may still be downloading it); raise the limit with "mcpStartTimeout": 60 in settings.json or SYLVAN_MCP_START_TIMEOUT=60; its tools are not available. /mcp shows more)',
    );
    terminal.keys('C-u');
    terminal.type('/mcp\r');
    const shown = await terminal.expectScreen(/last error: [\s\S]*^›$/m, '/mcp');
    assert.match(shown.replace(/\n +/g, ' '), /last error: it timed out after 1 s starting/);
    assert.doesNotMatch(shown, /Failed to send cancellation|not running/);
  });
});
