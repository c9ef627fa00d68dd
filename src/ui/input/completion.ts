import { sanitizeLine } from '../../shared/text/sanitize.ts';

/** A line shown under the input: a command and what it does, or a file name. */
export interface Suggestion {
  label: string;
  description?: string;
}

/** What Tab does: replace `from`..`to` of the text with `text`, and what to show under the input. */
export interface Completion {
  from: number;
  to: number;
  text: string;
  suggestions: Suggestion[];
}

export interface Completer {
  /**
   * Suggestions while typing (the `/` menu), MAX_SUGGESTIONS of them from `from` on, then a row
   * saying how many more there are; synchronous, cheap.
   */
  suggest(text: string, cursor: number, from?: number): Suggestion[];
  /** How many commands the `/` menu holds for `text` (what ↓ can scroll through). */
  count(text: string): number;
  /** Tab. */
  complete(text: string, cursor: number): Promise<Completion | undefined>;
}

/** Most files and commands shown under the input at once. */
export const MAX_SUGGESTIONS = 10;

/** A command as the menu lists it: `/help`, and what it does. */
export interface CommandSummary {
  name: string;
  summary: string;
}

/**
 * What `@server:` completes from, asked at each Tab (servers come up after the prompt): the ready
 * servers that offer resources, and their cached, bounded lists.
 */
export interface ResourceSource {
  resourceServers(): readonly { name: string; resources: readonly { uri: string; name: string }[] }[];
}

export interface CompleterOptions {
  /** The built-in commands. */
  commands: readonly CommandSummary[];
  /**
   * More commands, each source asked at every keystroke (custom commands from files, MCP prompts),
   * listed after the built-ins; a name a built-in has is left out.
   */
  moreCommands?: readonly (() => readonly CommandSummary[])[];
  workspaceRoot: string;
  secretPatterns?: readonly string[];
  /** The MCP servers' resources, for `@server:uri`. */
  resources?: ResourceSource;
}

/** `/` completes commands (and lists them as you type); `@` completes workspace paths and `@server:` resources. */
export function createCompleter(options: CompleterOptions): Completer {
  const allCommands = (): readonly CommandSummary[] => {
    if (!options.moreCommands?.length) return options.commands;
    const taken = new Set(options.commands.map((command) => command.name));
    const more = options.moreCommands.flatMap((source) => source()).filter((command) => !taken.has(command.name));
    return [...options.commands, ...more];
  };
  // Compared without case both ways: an MCP prompt may be named `Summarise`.
  const commandsFor = (text: string) =>
    allCommands().filter((command) => command.name.toLowerCase().startsWith(text.toLowerCase()));
  return {
    suggest(text, _cursor, from = 0) {
      if (!/^\/\S*$/.test(text)) return [];
      const all = commandsFor(text);
      const shown = all.slice(from, from + MAX_SUGGESTIONS).map((command) => ({ label: command.name, description: command.summary }));
      const more = all.length - from - shown.length;
      // The menu is a window: say what lies beyond it, and how to get there.
      const hidden = [from > 0 ? `${from} above` : '', more > 0 ? `${more} more` : ''].filter(Boolean).join(', ');
      return hidden === '' ? shown : [...shown, { label: '…', description: `${hidden}: ↑/↓ scroll, or type to narrow` }];
    },
    count: (text) => (/^\/\S*$/.test(text) ? commandsFor(text).length : 0),
    async complete(text, cursor) {
      if (/^\/\S*$/.test(text.slice(0, cursor)) && !text.slice(cursor).includes(' ')) {
        const names = commandsFor(text.slice(0, cursor)).map((command) => command.name);
        if (names.length === 0) return undefined;
        const completed = names.length === 1 ? `${names[0]} ` : commonPrefix(names);
        return { from: 0, to: text.length, text: completed, suggestions: names.length > 1 ? names.map((label) => ({ label })) : [] };
      }
      const token = /(?:^|\s)@(\S*)$/.exec(text.slice(0, cursor));
      if (!token) return undefined;
      const partial = token[1]!;
      const resources = resourcesFor(options.resources, partial);
      const entries: { name: string; description?: string }[] =
        resources ?? [...serversFor(options.resources, partial), ...(await workspaceEntries(options, partial)).map((name) => ({ name }))];
      if (entries.length === 0) return undefined;
      const names = entries.map((entry) => entry.name);
      const from = cursor - partial.length;
      const completed = names.length === 1 ? names[0]! : commonPrefix(names);
      const suggestions =
        names.length > 1 ? entries.slice(0, MAX_SUGGESTIONS).map((entry) => ({ label: sanitizeLine(entry.name), description: entry.description })) : [];
      return { from, to: cursor, text: completed.length >= partial.length ? completed : partial, suggestions };
    },
  };
}

/**
 * Workspace paths starting with `partial` (folders end in `/`), inside the workspace boundary, secret
 * files left out, dot files only when asked for. Never throws: a folder that cannot be listed gives none.
 */
async function workspaceEntries(options: CompleterOptions, partial: string): Promise<string[]> {
  const slash = partial.lastIndexOf('/');
  const folder = slash < 0 ? '' : partial.slice(0, slash + 1);
  const start = partial.slice(slash + 1);
  try {
    // Loaded on the first @ completion, not at start-up.
    const [{ readdir }, { isSecretPath, resolveWorkspaceTarget }] = await Promise.all([
      import('node:fs/promises'),
      import('../../shared/workspace-path.ts'),
    ]);
    const target = await resolveWorkspaceTarget(options.workspaceRoot, folder === '' ? '.' : folder, { refuseSecrets: false });
    const entries = await readdir(target.absolutePath, { withFileTypes: true });
    return entries
      .filter((entry) => entry.name.startsWith(start) && (start.startsWith('.') || !entry.name.startsWith('.')))
      .filter((entry) => !isSecretPath(`${folder}${entry.name}`, options.secretPatterns ?? []))
      .map((entry) => `${folder}${entry.name}${entry.isDirectory() ? '/' : ''}`)
      .sort();
  } catch {
    return [];
  }
}

/** After `@server:` (a server with resources): its resources whose URI starts with what follows, as `server:uri`; else undefined. */
function resourcesFor(mcp: ResourceSource | undefined, partial: string): { name: string; description?: string }[] | undefined {
  const match = /^([^\s:/]+):(.*)$/.exec(partial);
  const server = match && mcp?.resourceServers().find((candidate) => candidate.name === match[1]);
  if (!match || !server) return undefined;
  return server.resources
    .filter((resource) => resource.uri.startsWith(match[2]!))
    .map((resource) => ({ name: `${server.name}:${resource.uri}`, description: resource.name === resource.uri ? undefined : sanitizeLine(resource.name) }));
}

/** `@ev` offers `everything:` beside the files, for a server with resources. */
function serversFor(mcp: ResourceSource | undefined, partial: string): { name: string; description: string }[] {
  if (!mcp || partial.includes('/') || partial.includes(':')) return [];
  return mcp
    .resourceServers()
    .filter((server) => server.name.startsWith(partial))
    .map((server) => ({ name: `${server.name}:`, description: 'MCP server resources' }));
}

function commonPrefix(values: string[]): string {
  let prefix = values[0] ?? '';
  for (const value of values) while (!value.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
