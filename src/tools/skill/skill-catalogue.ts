import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedFile } from '../../shared/bounded-file.ts';
import { parseSkillFile } from './skill-file.ts';

/** Where a skill was found: the project's folders came with the workspace, the user's are their own. */
export type SkillOwner = 'project' | 'user';

export interface Skill {
  /** The front matter's `name`: what the `skill` tool is called with. */
  name: string;
  /** The front matter's `description`, one line, bounded: what the system prompt lists. */
  description: string;
  /** The folder holding `SKILL.md`, as found (its files are read through it). */
  folder: string;
  /** How `/skills` names where it came from: `.claude/skills`, `~/.claude/skills`. */
  source: string;
  owner: SkillOwner;
}

export interface SkillCatalogue {
  /** The skills in force, by name; a user's skill wins over a project's of the same name. */
  skills: Skill[];
  /** Skills found but turned off in the settings (`skills.disabled`). */
  disabled: Skill[];
  /** One line each: `SKILL.md` files that were not used, and why. */
  problems: string[];
}

export interface SkillPlaces {
  workspaceRoot: string;
  /** $SYLVAN_HOME. */
  sylvanHome: string;
  /** The user's home folder (`~/.claude/skills`); absent, not looked in. */
  userHome?: string;
  /** Names the settings turned off. */
  disabled?: readonly string[];
  secretPatterns?: readonly string[];
}

/** Skill folders looked at in one place, at most: a folder of thousands is a mistake, not a library. */
const MAX_SKILL_FOLDERS = 500;
/** A SKILL.md's first bytes that are read at start: its front matter is at the top. */
const HEAD_BYTES = 16 * 1024;

interface Place {
  folder: string;
  source: string;
  owner: SkillOwner;
  /** The folder every link must stay in. */
  within: string;
  withinLabel: string;
}

/** The folders searched, user's first: `$SYLVAN_HOME/skills`, `~/.claude/skills`, then the project's `.sylvan/skills`, `.claude/skills`, `.agents/skills`. */
function placesOf(places: SkillPlaces): Place[] {
  // A user's skill may be a link into their dotfiles: it must stay in their own folder, not in the skills folder.
  const user = (folder: string, source: string, within: string, withinLabel: string): Place => ({ folder, source, owner: 'user', within, withinLabel });
  const project = (relative: string): Place => ({
    folder: join(places.workspaceRoot, relative),
    source: relative,
    owner: 'project',
    within: places.workspaceRoot,
    withinLabel: 'the workspace',
  });
  return [
    user(join(places.sylvanHome, 'skills'), '$SYLVAN_HOME/skills', places.sylvanHome, '$SYLVAN_HOME'),
    ...(places.userHome === undefined ? [] : [user(join(places.userHome, '.claude', 'skills'), '~/.claude/skills', places.userHome, 'your home folder')]),
    project('.sylvan/skills'),
    project('.claude/skills'),
    project('.agents/skills'),
  ];
}

/**
 * Finds the skills: each `<place>/<folder>/SKILL.md` whose front matter names it and says what it
 * is for. Only the head of each file is read, through the bounded reader (no FIFO, device, link
 * out of its place or secret file). A malformed file is one line in `problems`, never a failure.
 * Synchronous and small: it runs once per session, so the system prompt it feeds stays the same.
 */
export function findSkills(places: SkillPlaces): SkillCatalogue {
  const byName = new Map<string, Skill>();
  const problems: string[] = [];
  const turnedOff = new Set((places.disabled ?? []).map((name) => name.toLowerCase()));
  const disabled: Skill[] = [];
  for (const place of placesOf(places)) {
    for (const entry of folderNames(place.folder).slice(0, MAX_SKILL_FOLDERS)) {
      const label = `${place.source}/${entry}/SKILL.md`;
      const read = readBoundedFile(join(place.folder, entry, 'SKILL.md'), {
        maxBytes: HEAD_BYTES,
        within: place.within,
        withinLabel: place.withinLabel,
        readFileRules: { secretPatterns: places.secretPatterns ?? [] },
      });
      if (read.status === 'missing') continue;
      if (read.status === 'refused') {
        problems.push(`skill ${label} was not read: ${read.reason}`);
        continue;
      }
      const parsed = parseSkillFile(read.bytes.toString('utf8'));
      if (!parsed.ok) {
        problems.push(`skill ${label} was skipped: ${parsed.problem}`);
        continue;
      }
      const skill: Skill = { name: parsed.name, description: parsed.description, folder: join(place.folder, entry), source: place.source, owner: place.owner };
      const key = skill.name.toLowerCase();
      if (byName.has(key) || disabled.some((other) => other.name.toLowerCase() === key)) continue;
      if (turnedOff.has(key)) disabled.push(skill);
      else byName.set(key, skill);
    }
  }
  return { skills: [...byName.values()], disabled, problems };
}

/** The sub-folders of a skills folder, sorted; none when it is missing or unreadable. */
function folderNames(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
