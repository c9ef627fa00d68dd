import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import type { ModelMessage } from 'ai';
import { forTranscript, holdsImages, userContent, withoutImages } from '../../src/agent/loop/image-parts.ts';
import { estimateMessageTokens, ATTACHMENT_TOKENS } from '../../src/shared/text/token-estimate.ts';
import { TINY_PNG } from '../helpers/pictures.ts';

const image = { name: 'shots/pic.png', mediaType: 'image/png' as const, data: new Uint8Array(TINY_PNG) };

describe('pictures in messages', () => {
  test('the user message carries each picture as a file part with its type and name, then the text; text alone stays a string', () => {
    assert.equal(userContent('hello'), 'hello');
    assert.equal(userContent('hello', []), 'hello');
    assert.deepEqual(userContent('what is this?', [image]), [
      { type: 'file', data: image.data, mediaType: 'image/png', filename: 'shots/pic.png' },
      { type: 'text', text: 'what is this?' },
    ]);
  });

  test('a picture counts as a flat guess of tokens, not its base64 length', () => {
    const message: ModelMessage = { role: 'user', content: userContent('hi', [{ ...image, data: new Uint8Array(3_000_000) }]) };
    assert.ok(estimateMessageTokens(message) < ATTACHMENT_TOKENS + 20, String(estimateMessageTokens(message)));
  });

  test('a model that cannot see gets a line where each picture was; messages without one are left as they are', () => {
    const plain: ModelMessage = { role: 'assistant', content: 'a red square' };
    const messages: ModelMessage[] = [{ role: 'user', content: userContent('what is this?', [image]) }, plain];
    assert.equal(holdsImages(messages), true);
    const stripped = withoutImages(messages);
    assert.deepEqual(stripped[0], {
      role: 'user',
      content: [
        { type: 'text', text: '[image shots/pic.png was attached here; the current model cannot see images]' },
        { type: 'text', text: 'what is this?' },
      ],
    });
    assert.equal(stripped[1], plain);
    assert.equal(holdsImages(stripped), false);
    const none: ModelMessage[] = [plain];
    assert.equal(withoutImages(none), none, 'no copy when there is no picture');
  });

  test('the session keeps a note with the name, size and hash instead of the bytes', () => {
    const message: ModelMessage = { role: 'user', content: userContent('what is this?', [image]) };
    const saved = forTranscript(message);
    const hash = createHash('sha256').update(TINY_PNG).digest('hex').slice(0, 12);
    assert.deepEqual(saved, {
      role: 'user',
      content: [
        { type: 'text', text: `[image shots/pic.png (1 KB, sha256 ${hash}) was attached here; the saved session keeps only this note, attach it again to show it]` },
        { type: 'text', text: 'what is this?' },
      ],
    });
    const text: ModelMessage = { role: 'user', content: 'plain' };
    assert.equal(forTranscript(text), text);
  });
});
