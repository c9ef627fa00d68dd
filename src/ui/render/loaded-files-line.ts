import { homedir } from 'node:os';
import { loadProjectInstructions } from '../../agent/instructions/project-instructions.ts';
import type { Config } from '../../config/config.ts';

/** For the banner: which settings and instruction files this session uses (and how many custom commands), or undefined when none. */
export function loadedFilesLine(config: Config, customCommands = 0): string | undefined {
  // The folder itself, not a variable name the user may never have set.
  const home = shownHome(config.home);
  const settings = (config.settings?.layers ?? []).map((layer) => (layer.trusted ? `${home}/settings.json` : '.sylvan/settings.json'));
  const instructions = loadProjectInstructions(config.cwd, config.home, config.secretPatterns).map(
    (file) => `${file.label.replace(/^\$SYLVAN_HOME(?=\/)/, home)}${file.cutFrom === undefined ? '' : ' (cut)'}`,
  );
  const parts = [
    settings.length > 0 ? `settings: ${settings.join(', ')}` : '',
    instructions.length > 0 ? `instructions: ${instructions.join(', ')} (/instructions)` : '',
    customCommands > 0 ? `${customCommands} custom command${customCommands === 1 ? '' : 's'} (/help)` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Using ${parts.join(' · ')}` : undefined;
}

/** Sylvan's home as the user would type it: `~/.sylvan` under their home folder. */
export function shownHome(home: string): string {
  const user = process.env.HOME || homedir();
  return user && home.startsWith(`${user}/`) ? `~${home.slice(user.length)}` : home;
}
