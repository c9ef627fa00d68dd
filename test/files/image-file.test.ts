import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { imageTypeOf, isImagePath, MAX_IMAGE_BYTES, readImageFile } from '../../src/files/image-file.ts';
import { GIF_START, JPEG_START, TINY_PNG, WEBP_START } from '../helpers/pictures.ts';

const outside = mkdtempSync(join(tmpdir(), 'sylvan-images-outside-'));
const root = mkdtempSync(join(tmpdir(), 'sylvan-images-'));
after(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
writeFileSync(join(root, 'shot.png'), TINY_PNG);
writeFileSync(join(root, 'photo.JPG'), JPEG_START);
writeFileSync(join(root, 'anim.gif'), GIF_START);
writeFileSync(join(root, 'pic.webp'), WEBP_START);
writeFileSync(join(root, 'fake.png'), 'just text, not a picture\n');
writeFileSync(join(root, 'misnamed.jpg'), TINY_PNG);
writeFileSync(join(root, 'huge.png'), Buffer.concat([TINY_PNG, Buffer.alloc(MAX_IMAGE_BYTES)]));
writeFileSync(join(outside, 'elsewhere.png'), TINY_PNG);
symlinkSync(join(outside, 'elsewhere.png'), join(root, 'link-out.png'));
mkdirSync(join(root, 'folder.png'));
writeFileSync(join(root, 'private-key.png'), TINY_PNG);

describe('pictures from the workspace', () => {
  test('the four formats by extension and by their first bytes', () => {
    for (const name of ['a.png', 'b.jpg', 'c.JPEG', 'd.gif', 'e.webp']) assert.equal(isImagePath(name), true, name);
    for (const name of ['a.svg', 'b.bmp', 'png', 'notes.md']) assert.equal(isImagePath(name), false, name);
    assert.equal(imageTypeOf(TINY_PNG), 'image/png');
    assert.equal(imageTypeOf(JPEG_START), 'image/jpeg');
    assert.equal(imageTypeOf(GIF_START), 'image/gif');
    assert.equal(imageTypeOf(WEBP_START), 'image/webp');
    assert.equal(imageTypeOf(Buffer.from('RIFF\0\0\0\0WAVE')), undefined);
    assert.equal(imageTypeOf(Buffer.alloc(0)), undefined);
  });

  test('a picture is read whole with its type and workspace name', async () => {
    const image = await readImageFile(root, 'shot.png');
    assert.deepEqual({ name: image.name, mediaType: image.mediaType, bytes: Buffer.from(image.data).equals(TINY_PNG) }, { name: 'shot.png', mediaType: 'image/png', bytes: true });
    assert.equal((await readImageFile(root, join(root, 'photo.JPG'))).mediaType, 'image/jpeg', 'an absolute path inside the workspace');
    assert.equal((await readImageFile(root, 'anim.gif')).mediaType, 'image/gif');
    assert.equal((await readImageFile(root, 'pic.webp')).mediaType, 'image/webp');
  });

  test('refused, each with a reason that says what to do: not a picture, a misnamed one, too big, outside the workspace, a folder, a secret', async () => {
    await assert.rejects(readImageFile(root, 'fake.png'), /fake\.png is not a PNG image/);
    await assert.rejects(readImageFile(root, 'misnamed.jpg'), /misnamed\.jpg holds a PNG image, not JPEG; rename it/);
    await assert.rejects(readImageFile(root, 'huge.png'), /huge\.png is 7\.1 MB, over the limit of 7 MB an image; make it smaller \(resize it/);
    await assert.rejects(readImageFile(root, join(outside, 'elsewhere.png')), /outside the workspace/);
    await assert.rejects(readImageFile(root, '../elsewhere.png'), /outside the workspace/);
    await assert.rejects(readImageFile(root, 'link-out.png'), /outside the workspace/);
    await assert.rejects(readImageFile(root, 'folder.png'), /not a file/);
    await assert.rejects(readImageFile(root, 'private-key.png', { secretPatterns: ['private-key*'] }), /secret/i);
    await assert.rejects(readImageFile(root, 'notes.svg'), /not a PNG, JPEG, GIF or WebP file/);
  });
});
