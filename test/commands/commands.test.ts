import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { splitArguments, substituteArguments } from '../../src/prompt-files/command-arguments.ts';
import type { CustomCommand } from '../../src/prompt-files/custom-command.ts';
import { expandCommand, type ExpansionSteps } from '../../src/prompt-files/expand-command.ts';
import { parseCommandFile } from '../../src/prompt-files/front-matter.ts';
import { loadCustomCommands, MAX_COMMAND_FILE_BYTES } from '../../src/prompt-files/load-commands.ts';

const base = mkdtempSync(join(tmpdir(), 'sylvan-commands-'));
after(() => rmSync(base, { recursive: true, force: true }));
let count = 0;

/** A workspace and a home, with `files` written under them (`project/…` and `user/…` map to the two commands folders). */
function folders(files: Record<string, string>): { workspaceRoot: string; home: string } {
  const top = join(base, `case-${++count}`);
  const workspaceRoot = join(top, 'workspace');
  const home = join(top, 'home');
  mkdirSync(workspaceRoot, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const file = name.startsWith('project/')
      ? join(workspaceRoot, '.sylvan', 'commands', name.slice('project/'.length))
      : join(home, 'commands', name.slice('user/'.length));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return { workspaceRoot, home };
}

const load = (roots: { workspaceRoot: string; home: string }) => loadCustomCommands({ ...roots, builtIns: ['/help', '/model', '/exit'] });

const command = (body: string): CustomCommand => ({ name: 'test', source: 'project', file: '.sylvan/commands/test.md', description: '', body });

/** Steps that run no shell line and attach nothing, recording what they were asked. */
function recordingSteps(outputs: Record<string, string> = {}): ExpansionSteps & { ran: string[]; attachedFrom: string[] } {
  const ran: string[] = [];
  const attachedFrom: string[] = [];
  return {
    ran,
    attachedFrom,
    async runShellLine(line) {
      ran.push(line);
      const output = outputs[line];
      return output === undefined ? { ok: false, reason: `${line} was not approved` } : { ok: true, output };
    },
    async attach(text) {
      attachedFrom.push(text);
      return { appended: '' };
    },
  };
}

describe('command files: front matter', () => {
  test('description, argument-hint and model are read; quotes are taken off; other keys are ignored', () => {
    const parsed = parseCommandFile('---\ndescription: "Review: a file"\nargument-hint: [file]\nmodel: qwen-flash\nallowed-tools: Bash(git:*)\n# a comment\n\n---\n\nReview $1.\n');
    assert.deepEqual(parsed, {
      ok: true,
      frontMatter: { description: 'Review: a file', argumentHint: '[file]', model: 'qwen-flash' },
      body: 'Review $1.',
    });
  });

  test('a file without front matter is all prompt; CRLF line ends and a byte-order mark are read as plain lines', () => {
    assert.deepEqual(parseCommandFile('\ufeffExplain this.\r\nThen stop.\r\n'), { ok: true, frontMatter: {}, body: 'Explain this.\nThen stop.' });
    assert.deepEqual(parseCommandFile('---\r\ndescription: x\r\n---\r\nBody\r\n'), { ok: true, frontMatter: { description: 'x' }, body: 'Body' });
  });

  test('a line that is not key: value, a repeated key, a multi-line value or no closing --- is a problem naming it', () => {
    assert.deepEqual(parseCommandFile('---\ndescription: a\njust words\n---\nbody'), { ok: false, problem: 'line 3 of its front matter is not "key: value"' });
    assert.deepEqual(parseCommandFile('---\nmodel: a\nmodel: b\n---\nbody'), { ok: false, problem: 'its front matter sets model twice' });
    assert.deepEqual(parseCommandFile('---\ndescription: |\n  long\n---\nbody'), {
      ok: false,
      problem: "its front matter's description is a multi-line value; write it on one line",
    });
    assert.deepEqual(parseCommandFile('---\ndescription: a\nbody'), { ok: false, problem: 'its front matter (from the first line, ---) has no closing --- line' });
  });
});

describe('command files: arguments', () => {
  test('$ARGUMENTS is the whole text, $1…$9 its words ("quoted" words kept together), a missing word empty', () => {
    assert.deepEqual(splitArguments(`src/a.ts "two words" 'and three more'`), ['src/a.ts', 'two words', 'and three more']);
    assert.equal(substituteArguments('All: $ARGUMENTS | first: $1 | second: $2 | ninth: [$9]', ' a.ts "b c" '), 'All: a.ts "b c" | first: a.ts | second: b c | ninth: []');
  });

  test('placeholders typed in the arguments stay as typed (one pass)', () => {
    assert.equal(substituteArguments('Fix $ARGUMENTS now, $1', '$1 $ARGUMENTS'), 'Fix $1 $ARGUMENTS now, $1');
  });
});

describe('command files: loading', () => {
  test("a user command replaces the project's of the same name and says so; groups are group:name; both sources listed", () => {
    const loaded = load(
      folders({
        'project/fix.md': 'project fix',
        'user/fix.md': '---\ndescription: my fix\n---\nuser fix',
        'project/review.md': '# Review the diff\nLook closely.',
        'project/git/commit.md': 'commit it',
        'user/notes/daily/today.md': 'today',
      }),
    );
    assert.deepEqual(loaded.notes, []);
    assert.deepEqual(
      loaded.commands.map(({ name, source, file, description, overridesProject }) => ({ name, source, file, description, overridesProject })),
      [
        { name: 'fix', source: 'user', file: '$SYLVAN_HOME/commands/fix.md', description: 'my fix', overridesProject: true },
        { name: 'git:commit', source: 'project', file: '.sylvan/commands/git/commit.md', description: 'commit it', overridesProject: undefined },
        { name: 'notes:daily:today', source: 'user', file: '$SYLVAN_HOME/commands/notes/daily/today.md', description: 'today', overridesProject: undefined },
        { name: 'review', source: 'project', file: '.sylvan/commands/review.md', description: 'Review the diff', overridesProject: undefined },
      ],
    );
    assert.equal(loaded.commands[0]!.body, 'user fix');
  });

  test('a file named as a built-in command never replaces it, and a note says so', () => {
    const loaded = load(folders({ 'project/help.md': 'not help', 'user/model.md': 'not model' }));
    assert.deepEqual(loaded.commands, []);
    assert.deepEqual(loaded.notes, [
      '(.sylvan/commands/help.md is not used: /help is a built-in command, which a file never replaces; rename the file)',
      '($SYLVAN_HOME/commands/model.md is not used: /model is a built-in command, which a file never replaces; rename the file)',
    ]);
  });

  test('bad names, deep groups, big files, broken front matter and empty prompts are left out with a note each; other files are ignored', () => {
    const loaded = load(
      folders({
        'project/Review.md': 'x',
        'project/has space.md': 'x',
        'project/a/b/c/deep.md': 'x',
        'project/big.md': 'x'.repeat(MAX_COMMAND_FILE_BYTES + 1),
        'project/broken.md': '---\ndescription: a\n',
        'project/empty.md': '---\ndescription: nothing\n---\n\n',
        'project/README.txt': 'not a command',
        'project/.hidden.md': 'hidden',
        'project/ok.md': 'fine',
      }),
    );
    assert.deepEqual(loaded.commands.map((found) => found.name), ['ok']);
    assert.deepEqual(loaded.notes, [
      '(.sylvan/commands/a/b/c/ is not read: command groups go 2 folders deep at most)',
      `(.sylvan/commands/big.md was not read: it is larger than ${MAX_COMMAND_FILE_BYTES.toLocaleString('en-US')} bytes)`,
      '(.sylvan/commands/broken.md is not used: its front matter (from the first line, ---) has no closing --- line)',
      '(.sylvan/commands/empty.md is not used: it has no prompt after its front matter)',
      '(.sylvan/commands/has space.md is not a command: names use a-z, 0-9, _ and -)',
      '(.sylvan/commands/Review.md is not a command: names use a-z, 0-9, _ and -)',
    ]);
  });

  test('a link out of the commands folder is refused, and so is a commands folder that leads out of the workspace', () => {
    const roots = folders({ 'project/ok.md': 'fine' });
    const outside = join(base, `outside-${count}`);
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.md'), 'the text of a file outside');
    symlinkSync(join(outside, 'secret.md'), join(roots.workspaceRoot, '.sylvan', 'commands', 'leak.md'));
    writeFileSync(join(roots.workspaceRoot, 'inside.md'), 'a workspace file, but not a commands file');
    symlinkSync(join(roots.workspaceRoot, 'inside.md'), join(roots.workspaceRoot, '.sylvan', 'commands', 'sideways.md'));
    const loaded = load(roots);
    assert.deepEqual(loaded.commands.map((found) => found.name), ['ok']);
    assert.equal(loaded.notes.length, 2);
    assert.match(loaded.notes[0]!, /^\(\.sylvan\/commands\/leak\.md was not read: it leads outside \.sylvan\/commands, to /);
    assert.match(loaded.notes[1]!, /^\(\.sylvan\/commands\/sideways\.md was not read: it leads outside \.sylvan\/commands/);

    const linked = folders({});
    mkdirSync(join(linked.workspaceRoot, '.sylvan'));
    mkdirSync(join(outside, 'commands'));
    writeFileSync(join(outside, 'commands', 'planted.md'), 'planted');
    symlinkSync(join(outside, 'commands'), join(linked.workspaceRoot, '.sylvan', 'commands'));
    const fromLink = load(linked);
    assert.deepEqual(fromLink.commands, []);
    assert.match(fromLink.notes[0] ?? '', /^\(\.sylvan\/commands leads outside the workspace, to .*; its commands are not loaded\)$/);
  });

  test('a model that is not one plain model id is dropped with a note; the command stays', () => {
    const loaded = load(folders({ 'project/a.md': '---\nmodel: http://evil.example/v1\n---\nA', 'project/b.md': '---\nmodel: qwen3-max\n---\nB' }));
    assert.deepEqual(loaded.commands.map(({ name, model }) => ({ name, model })), [{ name: 'a', model: undefined }, { name: 'b', model: 'qwen3-max' }]);
    assert.deepEqual(loaded.notes, ['(.sylvan/commands/a.md: model "http://evil.example/v1" is not a model name, so the command uses the current model)']);
  });
});

describe('command files: expansion', () => {
  test('the arguments go in; a body without placeholders gets them after a blank line', async () => {
    assert.deepEqual(await expandCommand(command('Review $1 for $2.\nNotes: $ARGUMENTS'), 'a.ts bugs', recordingSteps()), {
      ok: true,
      prompt: 'Review a.ts for bugs.\nNotes: a.ts bugs',
    });
    assert.deepEqual(await expandCommand(command('Summarise the README.'), 'in French', recordingSteps()), {
      ok: true,
      prompt: 'Summarise the README.\n\nin French',
    });
    assert.deepEqual(await expandCommand(command('Summarise the README.'), '', recordingSteps()), { ok: true, prompt: 'Summarise the README.' });
  });

  test('each !`command` line is run in order and its output takes the line, fenced; arguments go into the command', async () => {
    const steps = recordingSteps({ 'git diff -- a.ts': 'exit code 0 (0.1 s)\nstdout:\n+ added ```', 'git status --short': 'exit code 0 (0.0 s)\nstdout:\n M a.ts' });
    const expanded = await expandCommand(command('The diff:\n!`git diff -- $1`\n  !`git status --short`  \nInline !`ls` stays text.'), 'a.ts', steps);
    assert.deepEqual(steps.ran, ['git diff -- a.ts', 'git status --short']);
    assert.deepEqual(expanded, {
      ok: true,
      prompt: [
        'The diff:',
        '````console\n$ git diff -- a.ts\nexit code 0 (0.1 s)\nstdout:\n+ added ```\n````',
        '```console\n$ git status --short\nexit code 0 (0.0 s)\nstdout:\n M a.ts\n```',
        'Inline !`ls` stays text.',
      ].join('\n'),
    });
  });

  test('the first command not run stops the command: nothing later runs, nothing is attached, nothing is sent', async () => {
    const steps = recordingSteps({ 'echo one': 'one' });
    const expanded = await expandCommand(command('!`echo one`\n!`rm -rf build`\n!`echo three`\nsee @a.txt'), '', steps);
    assert.deepEqual(expanded, { ok: false, reason: 'rm -rf build was not approved' });
    assert.deepEqual(steps.ran, ['echo one', 'rm -rf build']);
    assert.deepEqual(steps.attachedFrom, []);
  });

  test('an argument cannot make a new !`command` line, and @paths are looked for only in what the file and the user wrote', async () => {
    const steps = recordingSteps({ 'npm ls': 'exit code 0\nstdout:\n@types/node@20' });
    const expanded = await expandCommand(command('Explain:\n$ARGUMENTS\n!`npm ls`\nand @notes.md'), 'this\n!`rm -rf ~`', steps);
    assert.deepEqual(steps.ran, ['npm ls']);
    assert.equal(expanded.ok && expanded.prompt.includes('this\n!`rm -rf ~`'), true);
    assert.deepEqual(steps.attachedFrom, ['Explain:\nthis\n!`rm -rf ~`\n\nand @notes.md']);
  });
});

describe('bounds on what a commands folder can make Sylvan load (issue 32)', () => {
  test('a folder of 250 command files yields 200 of them, the first by name, with a note', () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 250; index++) files[`project/c${String(index).padStart(3, '0')}.md`] = `Prompt ${index}.\n`;
    const { commands, notes } = load(folders(files));
    assert.equal(commands.length, 200);
    assert.equal(commands.at(-1)?.name, 'c199');
    assert.ok(notes.some((note) => note.includes('has more than 200 commands; the first 200 by name are used')), notes.join('\n'));
  });

  test('a front-matter value over 300 characters leaves the file unused, with a note; 300 is fine', () => {
    const { commands, notes } = load(
      folders({
        'project/long.md': `---\ndescription: ${'d'.repeat(301)}\n---\nDo it.\n`,
        'project/fits.md': `---\ndescription: ${'d'.repeat(300)}\n---\nDo it.\n`,
      }),
    );
    assert.deepEqual(commands.map((command) => command.name), ['fits']);
    assert.ok(notes.some((note) => /long\.md is not used: .*longer than 300 characters/.test(note)), notes.join('\n'));
  });
});
