import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { contentText } from '../helpers/chat-requests.ts';
import { startDashScopeServer, text } from '../helpers/dashscope-server.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { closeAtEnd, dashscopeEnv } from '../helpers/served.ts';
import { startTerminal } from '../helpers/terminal.ts';

describe('/memory add and /memory edit in a terminal', { timeout: 90_000 }, () => {
  test('asks which file, then asks before writing; a yes appends and the next request carries it, a no leaves the file alone; /memory edit saves what $EDITOR wrote', async () => {
    const server = closeAtEnd(await startDashScopeServer({ respond: () => text('ok') }));
    const cwd = tempWorkspace();
    // An "editor" that adds a line to the file it is given, as a person would.
    writeFileSync(join(cwd, 'edit.sh'), 'echo "- Edited by hand" >> "$1"\n');
    const terminal = await startTerminal({ cwd, env: dashscopeEnv(server, { SYLVAN_MAX_RETRIES: '0', EDITOR: `sh ${join(cwd, 'edit.sh')}` }), columns: 120 });
    try {
      await terminal.expectScreen(/^›/m, 'the first prompt');
      terminal.type('/memory add Indent with tabs\r');
      await terminal.expectScreen(/Remember "Indent with tabs" in the project's AGENTS\.md or yours/, 'which file');
      terminal.type('p');
      await terminal.expectScreen(/Write AGENTS\.md\?/, 'the write question');
      assert.equal(existsSync(join(cwd, 'AGENTS.md')), false, 'written before the answer');
      terminal.type('y');
      await terminal.expectScreen(/Remembered in AGENTS\.md/, 'the fact remembered');
      assert.equal(readFileSync(join(cwd, 'AGENTS.md'), 'utf8'), '- Indent with tabs\n');
      terminal.type('# Keep answers short\r');
      await terminal.expectScreen(/Remember "Keep answers short" in/, 'which file, for a # line');
      terminal.type('u');
      await terminal.expectScreen(/Write \$SYLVAN_HOME\/AGENTS\.md\?/, 'the write question for the user file');
      terminal.type('n');
      await terminal.expectScreen(/\$SYLVAN_HOME\/AGENTS\.md was not changed\./, 'the no');
      assert.equal(existsSync(join(cwd, '.sylvan-home', 'AGENTS.md')), false, 'the user file was written after a no');
      terminal.type('/memory edit\r');
      await terminal.expectScreen(/Edit the project's AGENTS\.md or yours/, 'which file to edit');
      terminal.type('p');
      await terminal.expectScreen(/Write AGENTS\.md\?[\s\S]*Write AGENTS\.md\?/, 'the write question after the edit');
      terminal.type('y');
      await terminal.expectScreen(/Saved AGENTS\.md/, 'the edit saved');
      assert.equal(readFileSync(join(cwd, 'AGENTS.md'), 'utf8'), '- Indent with tabs\n- Edited by hand\n');
      terminal.type('hello\r');
      await terminal.expectScreen(/^ok$/m, 'the answer');
      assert.equal(server.requests.length, 1, 'a # line is not sent');
      assert.match(contentText(server.requests[0]?.body?.messages?.[0]?.content), /<instructions source="AGENTS\.md">\n- Indent with tabs\n- Edited by hand\n<\/instructions>/);
      terminal.type('\x04');
      assert.equal(await terminal.exited(), 0);
    } finally {
      await terminal.close();
    }
  });
});
