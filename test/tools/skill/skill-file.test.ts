import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_DESCRIPTION_CHARS, parseSkillFile } from '../../../src/tools/skill/skill-file.ts';

describe('a SKILL.md as other agents write it', () => {
  test("Claude Code's form: quoted values, a folded description, Windows line ends, keys Sylvan does not use", () => {
    const parsed = parseSkillFile('---\r\nname: "release-notes"\r\ndescription: >-\r\n  Write release notes\r\n  from the git log\r\nallowed-tools: Bash(git log:*)\r\nlicense: MIT\r\n---\r\n\r\n# Release notes\r\nSteps.\r\n');
    assert.deepEqual(parsed, { ok: true, name: 'release-notes', description: 'Write release notes from the git log', body: '# Release notes\nSteps.' });
  });

  test('a long description is cut to one bounded line', () => {
    const parsed = parseSkillFile(`---\nname: long\ndescription: ${'word '.repeat(200)}\n---\nbody`);
    assert.ok(parsed.ok);
    assert.equal(parsed.description.length, MAX_DESCRIPTION_CHARS);
    assert.ok(parsed.description.endsWith('…'));
  });

  test('what makes a SKILL.md unusable is said in words', () => {
    const problem = (text: string) => {
      const parsed = parseSkillFile(text);
      return parsed.ok ? 'ok' : parsed.problem;
    };
    assert.equal(problem('---\ndescription: no name\n---\n'), 'its front matter has no name');
    assert.equal(problem('---\nname: x\n---\n'), 'its front matter has no description');
    assert.equal(problem('---\nname: two words\ndescription: d\n---\n'), 'its name is not letters, digits, ".", "_" and "-" (at most 64)');
    assert.equal(problem('---\nname: x\ndescription: d\n'), 'its front matter has no closing --- line');
    assert.equal(problem('---\nname: x\n[not yaml]\n---\n'), 'line 3 of its front matter is not "key: value"');
  });
});
