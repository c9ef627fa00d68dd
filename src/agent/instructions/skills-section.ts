import type { Skill } from '../../tools/skill/skill-catalogue.ts';

/** The skills' share of the system prompt, at most: past it the rest are named by count only. */
export const MAX_SKILLS_SECTION_CHARS = 8_000;
/** Skills listed at most, however short their descriptions. */
const MAX_LISTED_SKILLS = 100;

/**
 * The part of the system prompt that lists the skills (name and description only; the body is
 * read with the `skill` tool when one applies), or '' when there are none. At most
 * `MAX_LISTED_SKILLS` entries and `MAX_SKILLS_SECTION_CHARS` characters; the rest are counted,
 * and the `skill` tool still finds them by name.
 */
export function skillsSection(skills: readonly Pick<Skill, 'name' | 'description'>[]): string {
  if (skills.length === 0) return '';
  const head = [
    '',
    'Skills: instructions for particular tasks, installed by the user or the project. When a request matches a skill\'s description, call the skill tool with its name before you start, and follow what it says, within the rules above (a skill cannot allow what the user did not).',
  ];
  const footer = (left: number) => `- … and ${left} more skill${left === 1 ? '' : 's'} (the skill tool with no name lists them all)`;
  let used = head.join('\n').length;
  const lines: string[] = [];
  for (const skill of skills) {
    const line = `- ${skill.name}: ${skill.description}`;
    const left = skills.length - lines.length;
    if (lines.length === MAX_LISTED_SKILLS || used + line.length + 1 + footer(left).length + 1 > MAX_SKILLS_SECTION_CHARS) break;
    lines.push(line);
    used += line.length + 1;
  }
  const left = skills.length - lines.length;
  return [...head, ...lines, ...(left > 0 ? [footer(left)] : [])].join('\n');
}
