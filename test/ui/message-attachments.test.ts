import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Chalk } from 'chalk';
import { attachFiles } from '../../src/ui/attachments/attach-files.ts';
import { withAttachments } from '../../src/ui/attachments/message-attachments.ts';
import { TINY_PNG } from '../helpers/pictures.ts';

const root = mkdtempSync(join(tmpdir(), 'sylvan-attach-images-'));
const outside = mkdtempSync(join(tmpdir(), 'sylvan-attach-outside-'));
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
writeFileSync(join(root, 'pic.png'), TINY_PNG);
writeFileSync(join(root, 'notes.md'), '# notes\n');
mkdirSync(join(root, 'my shots'));
writeFileSync(join(root, 'my shots', 'screen 1.png'), TINY_PNG);
for (let index = 1; index <= 6; index++) writeFileSync(join(root, `p${index}.png`), TINY_PNG);
writeFileSync(join(outside, 'desktop.png'), TINY_PNG);

const options = { workspaceRoot: root };

function context(model: string, provider = 'dashscope') {
  const lines: string[] = [];
  return { lines, context: { workspaceRoot: root, model, provider, print: (line: string) => lines.push(line), colour: new Chalk({ level: 0 }) } };
}

describe('attaching pictures', () => {
  test('@pic.png is read apart from the text, which stays as typed; text files are still appended', async () => {
    const attached = await attachFiles('what is in @pic.png? see @notes.md', options);
    assert.deepEqual(attached.images.map((image) => [image.name, image.mediaType, image.named]), [['pic.png', 'image/png', true]]);
    assert.match(attached.message, /^what is in @pic\.png\? see @notes\.md\n\n<file path="notes\.md">/);
    assert.doesNotMatch(attached.message, /PNG|pic\.png">/);
    assert.deepEqual(attached.files, ['pic.png', 'notes.md']);
    assert.equal(attached.imageRefused, false);
  });

  test('a pasted path attaches: the whole line, an absolute path, a quoted one or one with escaped spaces; a name inside a sentence does not', async () => {
    const names = async (line: string) => (await attachFiles(line, options)).images.map((image) => `${image.name}${image.named ? '@' : ''}`);
    assert.deepEqual(await names('pic.png'), ['pic.png']);
    assert.deepEqual(await names(`${join(root, 'pic.png')} what is this`), ['pic.png']);
    assert.deepEqual(await names(`'${join(root, 'my shots', 'screen 1.png')}' explain`), ['my shots/screen 1.png']);
    assert.deepEqual(await names(`${join(root, 'my\\ shots', 'screen\\ 1.png')} explain`), ['my shots/screen 1.png']);
    assert.deepEqual(await names(`file://${join(root, 'pic.png')}`), ['pic.png']);
    assert.deepEqual(await names('rename pic.png to icon.png'), []);
    assert.deepEqual(await names(`${join(root, 'gone.png')} what`), [], 'a path that does not exist is text');
  });

  test('bounds: at most 5 pictures a message; a pasted path outside the workspace is not attached and says so', async () => {
    const many = await attachFiles('@p1.png @p2.png @p3.png @p4.png @p5.png @p6.png compare', options);
    assert.equal(many.images.length, 5);
    assert.deepEqual(many.problems, ['@p6.png not attached: a message carries at most 5 images']);
    assert.equal(many.imageRefused, true);
    const pasted = await attachFiles(`${join(outside, 'desktop.png')} what is it`, options);
    assert.equal(pasted.images.length, 0);
    assert.match(pasted.problems[0]!, /desktop\.png not attached: path .* is outside the workspace/);
    assert.equal(pasted.imageRefused, false, 'a pasted path that cannot be attached stays text');
  });

  test('for a vision model the pictures go with the message', async () => {
    const { lines, context: vision } = context('qwen3-vl-plus');
    const prepared = await withAttachments('describe @pic.png', vision);
    assert.equal(prepared?.text, 'describe @pic.png');
    assert.deepEqual(prepared?.images.map((image) => image.name), ['pic.png']);
    assert.deepEqual(lines, ['  attached pic.png']);
  });

  test('a text model gets one line naming a model that can see, and the message is not sent', async () => {
    const { lines, context: text } = context('qwen-plus-latest');
    assert.equal(await withAttachments('describe @pic.png', text), undefined);
    assert.deepEqual(lines, ['  qwen-plus-latest cannot see images; switch with /model qwen3-vl-plus (or another model that reads images) and send it again. Not sent.']);
    const openai = context('gpt-3.5-turbo', 'openai');
    assert.equal(await withAttachments('@pic.png', openai.context), undefined);
    assert.match(openai.lines[0]!, /gpt-3\.5-turbo cannot see images; switch with \/model gpt-4\.1/);
  });

  test('a pasted path for a text model stays text, with a line saying so', async () => {
    const { lines, context: text } = context('qwen-plus-latest');
    const prepared = await withAttachments(`${join(root, 'pic.png')} where is this file used?`, text);
    assert.deepEqual(prepared?.images, []);
    assert.equal(prepared?.text, `${join(root, 'pic.png')} where is this file used?`);
    assert.match(lines[0]!, /^ {2}pic\.png sent as text: qwen-plus-latest cannot see images/);
  });

  test('an @ picture that cannot be attached stops the message, so it can be fixed and sent again', async () => {
    const { lines, context: vision } = context('qwen3-vl-plus');
    assert.equal(await withAttachments('look at @missing.png', vision), undefined);
    assert.deepEqual(lines, ['  @missing.png not attached: no such file in the workspace', '  Not sent: fix the picture and send again (↑ brings the message back).']);
  });
});
