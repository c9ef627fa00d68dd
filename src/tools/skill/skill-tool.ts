import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { readBoundedFile } from '../../shared/bounded-file.ts';
import { isSecretPath } from '../../shared/workspace-path.ts';
import type { Skill } from './skill-catalogue.ts';
import { parseSkillFile } from './skill-file.ts';

/** The body handed to the model, at most: a skill longer than this should split into files beside it. */
const MAX_SKILL_BODY_CHARS = 20_000;
/** Files beside a SKILL.md that are listed, at most, and how deep the listing goes. */
const MAX_LISTED_FILES = 100;
const MAX_DEPTH = 3;

/**
 * Creates the `skill` tool: given a skill's name, returns its `SKILL.md` body (read now, bounded)
 * and the files beside it as absolute paths for `read_file`; without a name, or with an unknown
 * one, the names of every skill. Reads only: a skill is instructions, and what it tells the model
 * to run still goes through `run_command` and its approval.
 */
export function createSkillTool(skills: readonly Skill[], secretPatterns: readonly string[]) {
  const byName = new Map(skills.map((skill) => [skill.name.toLowerCase(), skill]));
  const names = () => skills.map((skill) => skill.name).join(', ');
  return tool({
    description: 'Read a skill: its instructions (the body of its SKILL.md) and the files beside it. Call it with a skill\'s name from the list in the system prompt when a request matches its description.',
    inputSchema: z.object({ name: z.string().optional().describe('The skill\'s name, as listed; leave it out to list every skill.') }),
    async execute({ name }) {
      if (name === undefined || name.trim() === '') return `Skills: ${names()}`;
      const skill = byName.get(name.trim().toLowerCase());
      if (!skill) throw new Error(`there is no skill named ${JSON.stringify(name)}; the skills are: ${names()}`);
      return describeSkill(skill, secretPatterns);
    },
  });
}

function describeSkill(skill: Skill, secretPatterns: readonly string[]): string {
  const read = readBoundedFile(join(skill.folder, 'SKILL.md'), { maxBytes: MAX_SKILL_BODY_CHARS * 4, within: skill.folder, withinLabel: 'its skill folder', readFileRules: { secretPatterns } });
  if (read.status !== 'read') throw new Error(`the skill ${skill.name}'s SKILL.md cannot be read now: ${read.status === 'refused' ? read.reason : 'it is gone'}`);
  const parsed = parseSkillFile(read.bytes.toString('utf8'));
  if (!parsed.ok) throw new Error(`the skill ${skill.name}'s SKILL.md changed and cannot be used now: ${parsed.problem}`);
  const body = parsed.body.length > MAX_SKILL_BODY_CHARS || read.cut ? `${parsed.body.slice(0, MAX_SKILL_BODY_CHARS)}\n[… the rest of SKILL.md was cut]` : parsed.body;
  const files = filesBeside(skill.folder, secretPatterns);
  const listing = files.length === 0 ? 'No other files.' : ['Files beside it (read them with read_file at these paths):', ...files.map((file) => `- ${join(skill.folder, file)}`)].join('\n');
  return `Skill ${skill.name} (${skill.source}), folder ${skill.folder}\n\n${body}\n\n${listing}`;
}

/** Files under the skill folder but SKILL.md, relative, sorted by the walk: no secret files, no links, bounded. */
function filesBeside(folder: string, secretPatterns: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (relative: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(join(folder, relative), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= MAX_LISTED_FILES) return;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (path === 'SKILL.md' || isSecretPath(path, secretPatterns)) continue;
      if (entry.isDirectory() && depth < MAX_DEPTH && entry.name !== 'node_modules' && entry.name !== '.git') walk(path, depth + 1);
      else if (entry.isFile()) found.push(path);
    }
  };
  walk('', 1);
  return found;
}
