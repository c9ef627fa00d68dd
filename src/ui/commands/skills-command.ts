import type { AgentSetup } from '../../runtime/runtime.ts';
import type { CommandState } from '../state/repl-state.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';

const WHERE = '.sylvan/skills, .claude/skills and .agents/skills (the project\'s), $SYLVAN_HOME/skills and ~/.claude/skills (yours), each skill a folder with a SKILL.md';

/** `/skills`: the skills found at start with where each came from, those turned off, and the files that were not used (dimmed). */
export function skillsCommand(state: CommandState<Pick<AgentSetup, 'skills'>>): void {
  const { skills, disabled, problems } = state.runtime.skills;
  if (skills.length === 0 && disabled.length === 0) state.print(`  No skills. Sylvan looks in ${WHERE}.`);
  if (skills.length > 0) {
    state.print(`  Skills the model can read (${skills.length}); it sees each name and description, and reads a skill when a request matches:`);
    const width = Math.min(24, Math.max(...skills.map((skill) => skill.name.length)));
    for (const skill of skills) {
      state.print(`    ${sanitizeLine(skill.name).padEnd(width)}  ${sanitizeLine(skill.description)} ${state.dim(`· ${skill.source} (${skill.owner === 'user' ? 'yours' : 'the project\'s'})`)}`);
    }
  }
  if (disabled.length > 0) {
    state.print(state.dim(`  Turned off in the settings (skills.disabled): ${disabled.map((skill) => `${sanitizeLine(skill.name)} (${skill.source})`).join(', ')}`));
  }
  for (const problem of problems) state.print(state.dim(`  (${sanitizeLine(problem)})`));
}
