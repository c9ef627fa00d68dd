import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { argumentSummary, parsePromptArguments, parsePromptCall, promptWords } from '../../src/prompt-files/mcp-prompt-arguments.ts';
import type { McpPrompt } from '../../src/mcp/prompt-list.ts';

const argsPrompt: McpPrompt = {
  name: 'args-prompt',
  arguments: [
    { name: 'city', description: 'Name of the city', required: true },
    { name: 'state', required: false },
  ],
};
const simple: McpPrompt = { name: 'simple-prompt', arguments: [] };
const parsed = (text: string, prompt = argsPrompt) => {
  const result = parsePromptArguments(text, prompt);
  assert.ok(result.ok, `not parsed: ${JSON.stringify(result)}`);
  return { values: result.values, missing: result.missing.map((argument) => argument.name) };
};

describe('/server:prompt lines', () => {
  test('only a configured server makes /x:y a prompt; anything else stays a /command', () => {
    assert.deepEqual(parsePromptCall('/everything:args-prompt  Paris  TX ', ['everything']), { server: 'everything', prompt: 'args-prompt', argumentText: 'Paris  TX' });
    assert.deepEqual(parsePromptCall('/everything:simple-prompt', ['everything']), { server: 'everything', prompt: 'simple-prompt', argumentText: '' });
    assert.equal(parsePromptCall('/other:args-prompt', ['everything']), undefined);
    assert.equal(parsePromptCall('/Everything:args-prompt', ['everything']), undefined, 'MCP names are case-sensitive');
    assert.equal(parsePromptCall('/help', ['everything']), undefined);
    assert.equal(parsePromptCall('/everything:', ['everything']), undefined);
    assert.equal(parsePromptCall('/usr/bin:x', ['usr']), undefined);
  });
});

describe('prompt arguments', () => {
  test('words split at spaces; quotes keep spaces inside one word', () => {
    assert.deepEqual(promptWords('city="New York" \'a b\'  plain don\'t'), [
      { word: 'New York', named: 'city' },
      { word: 'a b' },
      { word: 'plain' },
      { word: "don't" },
    ]);
    assert.deepEqual(promptWords('a=b=c'), [{ word: 'b=c', named: 'a' }]);
    assert.deepEqual(promptWords('   '), []);
  });

  test('positional in the declared order, or name=value in any order', () => {
    assert.deepEqual(parsed('Paris'), { values: { city: 'Paris' }, missing: [] });
    assert.deepEqual(parsed('Paris TX'), { values: { city: 'Paris', state: 'TX' }, missing: [] });
    assert.deepEqual(parsed('state=TX city=Paris'), { values: { city: 'Paris', state: 'TX' }, missing: [] });
    assert.deepEqual(parsed('state=CA "San Jose"'), { values: { city: 'San Jose', state: 'CA' }, missing: [] });
  });

  test('the last argument filled by position takes the rest of the line', () => {
    assert.deepEqual(parsed('Paris Texas USA'), { values: { city: 'Paris', state: 'Texas USA' }, missing: [] });
    assert.deepEqual(parsed('city=Paris lone star state'), { values: { city: 'Paris', state: 'lone star state' }, missing: [] });
  });

  test('a required argument without a value (absent or empty) is missing; an optional one is not', () => {
    assert.deepEqual(parsed(''), { values: {}, missing: ['city'] });
    assert.deepEqual(parsed('state=TX'), { values: { state: 'TX' }, missing: ['city'] });
    assert.deepEqual(parsed('city='), { values: {}, missing: ['city'] });
  });

  test('a name=value for an undeclared name is a positional word', () => {
    assert.deepEqual(parsed('x=1'), { values: { city: 'x=1' }, missing: [] });
  });

  test('words a prompt has no argument for are an error, not dropped', () => {
    assert.deepEqual(parsePromptArguments('extra', simple), { ok: false, message: 'simple-prompt takes no arguments.' });
    const full = parsePromptArguments('city=Paris state=TX more', argsPrompt);
    assert.equal(full.ok, false);
    assert.match(!full.ok ? full.message : '', /has no argument left for "more"\. Its arguments: <city> \[state\]/);
  });

  test('the summary marks required arguments <…> and optional ones […]', () => {
    assert.equal(argumentSummary(argsPrompt), '<city> [state]');
    assert.equal(argumentSummary(simple), '');
  });
});
