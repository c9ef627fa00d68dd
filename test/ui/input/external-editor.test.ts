import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { editInExternalEditor } from '../../../src/ui/input/external-editor.ts';

const folder = mkdtempSync(join(tmpdir(), 'sylvan-editors-'));
after(() => rmSync(folder, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

const environment = (variables: Record<string, string>) => ({ PATH: process.env.PATH ?? '', ...variables });

test('$VISUAL comes before $EDITOR; the file is private, holds the input, and is gone afterwards', async () => {
  const log = join(folder, 'visual.log');
  const visual = script('visual.sh', `printf '%s %s ' "$1" "$(stat -c %a "$1")" > '${log}'; cat "$1" >> '${log}'; printf 'from visual\\n\\n' > "$1"`);
  const editor = script('editor.sh', `printf 'from editor' > "$1"`);
  const outcome = await editInExternalEditor('你好\nsecond line', environment({ VISUAL: visual, EDITOR: editor }));
  assert.deepEqual(outcome, { kind: 'edited', text: 'from visual' }, 'the trailing newlines an editor adds are dropped');
  const [path, mode, ...text] = readFileSync(log, 'utf8').split(' ');
  assert.equal(mode, '600');
  assert.equal(text.join(' '), '你好\nsecond line');
  assert.ok(path && !existsSync(path), 'the temp file is deleted');
});

test('an editor that cannot start is passed over; one that fails leaves the input unchanged', async () => {
  const editor = script('ok.sh', `printf 'edited' > "$1"`);
  assert.deepEqual(await editInExternalEditor('x', environment({ VISUAL: 'no-such-editor-3', EDITOR: editor })), { kind: 'edited', text: 'edited' });
  const failing = script('fails.sh', 'exit 3');
  assert.deepEqual(await editInExternalEditor('x', environment({ EDITOR: failing })), {
    kind: 'failed',
    message: `The editor (${failing}) exited with code 3; the input is unchanged.`,
  });
  const withArguments = script('args.sh', `printf '%s' "$1" > "$2"`);
  assert.deepEqual(await editInExternalEditor('x', environment({ EDITOR: `${withArguments} --wait` })), { kind: 'edited', text: '--wait' }, 'run through sh, so an editor takes arguments');
});
