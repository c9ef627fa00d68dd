import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApprovalRequest } from '../../../src/agent/loop/turn-options.ts';
import { onlyReads } from '../../../src/tools/tool-spec.ts';
import { webFetchSpec } from '../../../src/tools/web/web-fetch-spec.ts';
import { webSearchSpec } from '../../../src/tools/web/web-search-spec.ts';
import { printApproval, terminalApproval } from '../../helpers/approval-policies.ts';
import { ScriptedReader } from '../../helpers/scripted-reader.ts';

const fetchOf = (url: string): ApprovalRequest => ({ toolCallId: 'call-1', toolName: 'web_fetch', input: { url } });

describe('approval of web_fetch, per domain', { timeout: 5_000 }, () => {
  test('the scope is the host: kind domain, key domain:<host>, "always" naming the host', () => {
    assert.deepEqual(webFetchSpec.scope!({ url: 'https://Example.com/a?b=1' }), { kind: 'domain', key: 'domain:example.com', alwaysLabel: 'fetches from example.com this session' });
    assert.ok(webSearchSpec.scope === undefined && onlyReads(webSearchSpec), 'searching asks nothing: the query goes only to the configured backend');
    assert.equal(printApproval(false).decide('web_search', { query: 'x' }), 'not-needed');
  });

  test('the REPL asks y / n / always (naming the domain), and "always" covers that domain only', async () => {
    const reader = new ScriptedReader([{ kind: 'line', line: 'a' }]);
    const approval = terminalApproval({
      reader,
      show: () => {},
      describe: async (request) => ({ summary: `web_fetch ${(request.input as { url: string }).url}`, preview: '' }),
      onInterrupt: () => {},
    });
    assert.equal(approval.decide('web_fetch', { url: 'https://example.com/one' }), 'ask');
    assert.deepEqual(await approval.ask(fetchOf('https://example.com/one')), { approved: true });
    assert.match(reader.prompts[0] ?? '', /web_fetch https:\/\/example\.com\/one\? \[y\]es \/ \[n\]o \/ \[a\]lways fetches from example\.com this session › $/);
    assert.equal(approval.decide('web_fetch', { url: 'https://example.com/two' }), 'allow');
    assert.equal(approval.decide('web_fetch', { url: 'https://other.example.org/' }), 'ask');
  });

  test('print mode denies a fetch unless --yes', () => {
    const denied = printApproval(false).decide('web_fetch', { url: 'https://example.com/' });
    assert.ok(typeof denied === 'object' && 'deny' in denied && /--yes/.test(denied.deny));
    assert.equal(printApproval(true).decide('web_fetch', { url: 'https://example.com/' }), 'allow');
  });
});
