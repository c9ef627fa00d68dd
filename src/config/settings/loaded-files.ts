import { loadProjectInstructions } from '../../agent/project-instructions.ts';
import type { Config } from '../config.ts';

/** For the banner: which settings and instruction files this session uses (and how many custom commands), or undefined when none. */
export function loadedFilesLine(config: Config, customCommands = 0): string | undefined {
  const settings = (config.settings?.layers ?? []).map((layer) => (layer.trusted ? '$SYLVAN_HOME/settings.json' : '.sylvan/settings.json'));
  const instructions = loadProjectInstructions(config.cwd, config.home, config.secretPatterns).map(
    (file) => `${file.label}${file.cutFrom === undefined ? '' : ' (cut)'}`,
  );
  const parts = [
    settings.length > 0 ? `settings: ${settings.join(', ')}` : '',
    instructions.length > 0 ? `instructions: ${instructions.join(', ')} (/instructions)` : '',
    customCommands > 0 ? `${customCommands} custom command${customCommands === 1 ? '' : 's'} (/help)` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Using ${parts.join(' · ')}` : undefined;
}
