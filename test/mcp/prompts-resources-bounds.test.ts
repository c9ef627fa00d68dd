import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_RESULT_CHARS } from '../../src/mcp/call-result.ts';
import { boundPromptList, MAX_DESCRIPTION_CHARS, MAX_PROMPTS } from '../../src/mcp/prompt-list.ts';
import { MAX_PROMPT_CHARS, promptTurn } from '../../src/mcp/prompt-messages.ts';
import { resourceText } from '../../src/mcp/resource-contents.ts';
import { boundResourceList, MAX_RESOURCES } from '../../src/mcp/resource-list.ts';
import { createResourceTools, type ResourceSource } from '../../src/mcp/resource-tools.ts';

const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('prompts/list, bounded', () => {
  test('at most 100 prompts, in the server\'s order', () => {
    const listed = Array.from({ length: 150 }, (_, index) => ({ name: `p${index}` }));
    const bounded = boundPromptList(listed);
    assert.equal(bounded.kept.length, MAX_PROMPTS);
    assert.equal(bounded.kept[0]?.name, 'p0');
    assert.equal(bounded.listedCount, 150);
  });

  test('a prompt whose name or an argument name cannot be typed as one word is left out', () => {
    const kept = boundPromptList([
      { name: 'ok', arguments: [{ name: 'city', required: true }, { name: 'state' }] },
      { name: 'two words' },
      { name: 'x'.repeat(65) },
      { name: 'esc\u001b]52;c;aGk=\u0007' },
      { name: 'rtl\u202e' },
      { name: 'bad-arg', arguments: [{ name: 'a b' }] },
      { name: 'eq-arg', arguments: [{ name: 'a=b' }] },
      { name: 'many-args', arguments: Array.from({ length: 21 }, (_, index) => ({ name: `a${index}` })) },
      { name: 'ok' },
      { description: 'no name' },
    ]).kept;
    assert.deepEqual(kept, [{ name: 'ok', description: undefined, arguments: [{ name: 'city', description: undefined, required: true }, { name: 'state', description: undefined, required: false }] }]);
  });

  test('descriptions become one line of at most 200 characters', () => {
    const [prompt] = boundPromptList([{ name: 'long', description: `first\nsecond ${'x'.repeat(500)}`, arguments: [{ name: 'a', description: 'y'.repeat(300) }] }]).kept;
    assert.equal(prompt?.description?.length, MAX_DESCRIPTION_CHARS);
    assert.match(prompt?.description ?? '', /^first second x+…$/);
    assert.equal(prompt?.arguments[0]?.description?.length, MAX_DESCRIPTION_CHARS);
    assert.equal(boundPromptList([{ name: 'titled', title: 'Team Management' }]).kept[0]?.description, 'Team Management');
  });
});

describe('resources/list, bounded', () => {
  test('at most 200 resources; URIs that cannot follow @ (spaces, controls, over 1,000 characters) are left out', () => {
    const many = boundResourceList(Array.from({ length: 250 }, (_, index) => ({ uri: `test://r/${index}`, name: `r${index}` })));
    assert.equal(many.kept.length, MAX_RESOURCES);
    assert.equal(many.listedCount, 250);
    const kept = boundResourceList([
      { uri: 'test://ok', name: 'ok', mimeType: 'text/plain', description: 'fine' },
      { uri: 'test://two words', name: 'bad' },
      { uri: `test://${'x'.repeat(1_000)}`, name: 'long' },
      { uri: 'test://esc\u001b[2J', name: 'esc' },
      { uri: 'test://ok', name: 'duplicate' },
      { uri: 'test://no-name' },
    ]).kept;
    assert.deepEqual(kept, [
      { uri: 'test://ok', name: 'ok', mimeType: 'text/plain', description: 'fine' },
      { uri: 'test://no-name', name: 'test://no-name', mimeType: undefined, description: undefined },
    ]);
  });
});

describe('prompts/get messages become the user\'s turn', () => {
  test('text as it is, embedded text resources inlined, binary parts named where they were', () => {
    const turn = promptTurn({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Please analyse:' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://text/1', mimeType: 'text/plain', text: 'Resource 1 text' } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://blob/2', mimeType: 'text/plain', blob: base64('Resource 2 as a blob') } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://png', mimeType: 'image/png', blob: base64('\u0089PNG....') } } },
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'AAAA' } },
        { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
      ],
    });
    assert.equal(
      turn.text,
      [
        'Please analyse:',
        '<resource uri="demo://text/1">\nResource 1 text\n</resource>',
        '<resource uri="demo://blob/2">\nResource 2 as a blob\n</resource>',
        '[binary demo://png (image/png, 9 bytes): not sent, Sylvan sends prompts as text]',
        '[image (image/png, 3 bytes): not sent, Sylvan sends prompts as text]',
        '[assistant] Sure.',
      ].join('\n\n'),
    );
    assert.deepEqual(turn.skipped, ['binary demo://png (image/png, 9 bytes)', 'image (image/png, 3 bytes)']);
  });

  test('at most 16,000 characters, the cut said', () => {
    const turn = promptTurn({ messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(40_000) } }] });
    assert.ok(turn.text.startsWith('x'.repeat(MAX_PROMPT_CHARS)));
    assert.match(turn.text, /cut: the result had 40,000 characters, only the first 16,000 are shown/);
  });

  test('a result without messages gives no text', () => {
    assert.deepEqual(promptTurn({}), { text: '', skipped: [] });
  });
});

describe('resources/read contents as text', () => {
  test('text parts, and blobs of a textual type decoded; other blobs named, not decoded', () => {
    const read = resourceText({
      contents: [
        { uri: 'demo://a', mimeType: 'text/markdown', text: '# A' },
        { uri: 'demo://b', mimeType: 'application/json', blob: base64('{"b":1}') },
        { uri: 'demo://c', mimeType: 'application/octet-stream', blob: base64('binary') },
        { uri: 'demo://d', mimeType: 'text/plain', blob: Buffer.from([0xff, 0xfe, 0x00]).toString('base64') },
      ],
    });
    assert.equal(read.text, '# A\n{"b":1}');
    assert.deepEqual(read.skipped, ['binary demo://c (application/octet-stream, 6 bytes)', 'binary demo://d (text/plain, 3 bytes)']);
  });

  test('bounded like a tool result', () => {
    const read = resourceText({ contents: [{ uri: 'demo://big', text: 'y'.repeat(MAX_RESULT_CHARS * 3) }] });
    assert.ok(read.text.length < MAX_RESULT_CHARS + 200);
    assert.match(read.text, /cut: the result had 24,000 characters/);
  });
});

describe('list_mcp_resources and read_mcp_resource', () => {
  const reads: string[] = [];
  const source: ResourceSource = {
    resourceServers: () => [
      { name: 'docs', resources: [{ uri: 'docs://a', name: 'a.md', mimeType: 'text/markdown', description: 'The A' }], listedCount: 300 },
      { name: 'empty', resources: [] },
    ],
    readResource: async (server, uri) => {
      reads.push(`${server} ${uri}`);
      if (uri === 'docs://png') return { text: '', skipped: ['binary docs://png (image/png, 10 bytes)'] };
      return { text: `text of ${uri}`, skipped: [] };
    },
  };
  const tools = createResourceTools(source);
  const run = (name: string, input: object) =>
    (tools[name]!.execute as (input: object, options: object) => Promise<string>)(input, { toolCallId: 'call', messages: [] });

  test('the list names each server, its resources and when the bounds kept fewer', async () => {
    assert.equal(
      await run('list_mcp_resources', {}),
      'docs: 1 resource (the first 1 of 300)\n  docs://a  a.md · text/markdown · The A\nempty: no resources listed',
    );
    assert.equal(await run('list_mcp_resources', { server: 'empty' }), 'empty: no resources listed');
  });

  test('a read returns the text; a binary one is named; an unknown server is an error naming the ones there are', async () => {
    assert.equal(await run('read_mcp_resource', { server: 'docs', uri: 'docs://b' }), 'text of docs://b');
    assert.equal(await run('read_mcp_resource', { server: 'docs', uri: 'docs://png' }), '[binary docs://png (image/png, 10 bytes): not returned, Sylvan reads only text]');
    await assert.rejects(run('read_mcp_resource', { server: 'nope', uri: 'x://y' }), /No running MCP server named "nope" offers resources\. Servers with resources: docs, empty\./);
    assert.deepEqual(reads, ['docs docs://b', 'docs docs://png']);
  });
});
