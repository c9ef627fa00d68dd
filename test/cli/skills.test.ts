import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { MAX_SKILLS_SECTION_CHARS } from '../../src/agent/instructions/skills-section.ts';
import { contentText, requestAt, toolResultText } from '../helpers/chat-requests.ts';
import { runCli, type CliOptions, type ServerRun } from '../helpers/cli.ts';
import { tempWorkspace } from '../helpers/temp-workspace.ts';
import { text, toolCalls, type RecordedRequest, type Reply } from '../helpers/dashscope-server.ts';
import { CLI_TEST_TIMEOUT } from '../helpers/deadline.ts';

/** The CLI in this process against a loopback DashScope, in `cwd` with its own home folder (`~/.claude/skills`) outside it. */
function inProcessAgentServer(folders: { cwd: string; home: string }, key: string, replies: Reply[], options: CliOptions = {}): Promise<ServerRun> {
  return runCli({ inProcess: true, server: { replies }, key, cwd: folders.cwd, ...options, env: { HOME: folders.home, SYLVAN_SANDBOX: 'off', ...options.env } });
}

const KEY = 'sk-test-skills-7c1d04';
const BODY_MARK = 'BODY-ONLY-WHEN-READ-5e1';

function writeFiles(root: string, files: Record<string, string>): string {
  for (const [name, content] of Object.entries(files)) {
    const file = join(root, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return root;
}

const systemPrompt = (request: RecordedRequest): string => contentText(request.body?.messages?.[0]?.content);

/** A workspace with a project skill from Claude Code's folder and a malformed one; a home folder (outside it) with the user's own. */
function skillsWorkspace(): { cwd: string; home: string } {
  const home = writeFiles(tempWorkspace('sylvan-skills-home-'), {
    '.claude/skills/notes/SKILL.md': '---\nname: notes\ndescription: >\n  Keep meeting notes\n  in the team format\n---\nUse the cheat sheet.',
    '.claude/skills/notes/cheatsheet.md': 'CHEATSHEET-OUTSIDE-THE-WORKSPACE',
    '.claude/skills/notes/.env': 'TOKEN=never-listed',
  });
  const cwd = writeFiles(tempWorkspace('sylvan-skills-'), {
    '.claude/skills/pdf/SKILL.md': `---\nname: pdf\ndescription: "Fill in PDF forms\u0007 and\u202e read their fields"\nallowed-tools: run_command\n---\n# PDF\n${BODY_MARK}\nRun scripts/fill.sh to fill a form.`,
    '.claude/skills/pdf/reference.md': 'REFERENCE-BESIDE-THE-SKILL',
    '.claude/skills/pdf/scripts/fill.sh': 'touch filled.marker\necho filled\n',
    '.claude/skills/broken/SKILL.md': 'No front matter at all.',
  });
  return { cwd, home };
}

const SCRIPT = 'sh .claude/skills/pdf/scripts/fill.sh';
const skillTurn = (home: string) => [
  toolCalls([{ id: 'call_skill', name: 'skill', arguments: { name: 'pdf' } }]),
  toolCalls([
    { id: 'call_beside', name: 'read_file', arguments: { path: '.claude/skills/pdf/reference.md' } },
    { id: 'call_outside', name: 'read_file', arguments: { path: join(home, '.claude/skills/notes/cheatsheet.md') } },
  ]),
  toolCalls([{ id: 'call_script', name: 'run_command', arguments: { command: SCRIPT } }]),
  text('Done.'),
];

const asked = skillsWorkspace();
const askedRun = inProcessAgentServer(asked, KEY, skillTurn(asked.home), { args: ['-p', 'fill the form'] });
const allowed = skillsWorkspace();
const allowedRun = inProcessAgentServer(allowed, KEY, skillTurn(allowed.home), { args: ['--yes', '-p', 'fill the form'] });

describe('skills against a loopback model', () => {
  test('a skill from .claude/skills is in the first system prompt by name and description only, sanitised', CLI_TEST_TIMEOUT, async () => {
    const { server, result } = await askedRun;
    const prompt = systemPrompt(requestAt(server, 0));
    assert.match(prompt, /^- pdf: Fill in PDF forms and read their fields$/m, result.stdout);
    assert.match(prompt, /^- notes: Keep meeting notes in the team format$/m, "the user's skill from ~/.claude/skills");
    assert.equal(prompt.includes(BODY_MARK), false, 'the body is read only when the model asks');
    assert.equal(prompt.includes('broken'), false);
  });

  test("the skill tool returns the body and the files beside it, not secret ones; those files are readable, in the workspace and outside it", CLI_TEST_TIMEOUT, async () => {
    const { server } = await askedRun;
    const skill = toolResultText(requestAt(server, 1), 'call_skill');
    assert.match(skill, new RegExp(BODY_MARK));
    assert.ok(skill.includes(join(asked.cwd, '.claude/skills/pdf/reference.md')), skill);
    assert.ok(skill.includes(join(asked.cwd, '.claude/skills/pdf/scripts/fill.sh')), skill);
    assert.equal(skill.includes('SKILL.md\n'), false);
    const read = requestAt(server, 2);
    assert.match(toolResultText(read, 'call_beside'), /REFERENCE-BESIDE-THE-SKILL/);
    assert.match(toolResultText(read, 'call_outside'), /CHEATSHEET-OUTSIDE-THE-WORKSPACE/);
  });

  test("a skill's script does not run unapproved (print mode cannot ask), and runs with --yes", CLI_TEST_TIMEOUT, async () => {
    const { server } = await askedRun;
    assert.match(toolResultText(requestAt(server, 3), 'call_script'), /needs the user's approval|cannot ask/);
    assert.equal(existsSync(join(asked.cwd, 'filled.marker')), false, 'the script ran without approval');
    const yes = await allowedRun;
    assert.equal(yes.result.code, 0, yes.result.stderr);
    assert.match(toolResultText(requestAt(yes.server, 3), 'call_script'), /filled/);
    assert.equal(existsSync(join(allowed.cwd, 'filled.marker')), true, 'the approved script did not run');
  });

  test('a malformed SKILL.md is one line, and the run goes on', CLI_TEST_TIMEOUT, async () => {
    const { result } = await askedRun;
    assert.equal(result.code, 0, result.stderr);
    const lines = `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => line.includes('broken/SKILL.md'));
    assert.deepEqual(lines, ['(skill .claude/skills/broken/SKILL.md was skipped: it does not start with front matter (a --- line, name: and description:, ---))']);
  });
});

describe('many skills, and skills turned off', () => {
  test(`200 skills keep the system prompt's skills section within ${MAX_SKILLS_SECTION_CHARS.toLocaleString('en-US')} characters`, CLI_TEST_TIMEOUT, async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 200; index++) {
      files[`.sylvan/skills/skill-${index}/SKILL.md`] = `---\nname: skill-${index}\ndescription: ${`does task ${index} `.repeat(40)}\n---\nbody`;
    }
    const cwd = writeFiles(tempWorkspace('sylvan-skills-many-'), files);
    const { server, result } = await inProcessAgentServer({ cwd, home: tempWorkspace() }, KEY, [text('ok')], { args: ['-p', 'hi'] });
    assert.equal(result.code, 0, result.stderr);
    const prompt = systemPrompt(requestAt(server, 0));
    const section = prompt.slice(prompt.indexOf('\nSkills: '));
    assert.ok(section.length <= MAX_SKILLS_SECTION_CHARS, `the skills section has ${section.length} characters`);
    assert.match(section, /^- skill-0: does task 0 /m);
    assert.match(section, /^- … and \d+ more skills \(the skill tool with no name lists them all\)$/m);
  });

  test('a skill turned off in the settings is not offered; /skills lists the rest with their source, and the one turned off', CLI_TEST_TIMEOUT, async () => {
    const { cwd, home } = skillsWorkspace();
    writeFiles(cwd, { '.sylvan-home/settings.json': JSON.stringify({ skills: { disabled: ['notes'] } }) });
    const { server, result } = await inProcessAgentServer({ cwd, home }, KEY, [text('ok')], { stdin: '/skills\nhello\n' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ {4}pdf +Fill in PDF forms and read their fields · \.claude\/skills \(the project's\)$/m);
    assert.match(result.stdout, /Turned off in the settings \(skills\.disabled\): notes \(~\/\.claude\/skills\)/);
    const prompt = systemPrompt(requestAt(server, 0));
    assert.match(prompt, /^- pdf: /m);
    assert.equal(prompt.includes('- notes:'), false, 'the skill turned off is in the prompt');
  });
});
