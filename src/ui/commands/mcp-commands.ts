import type { ReplState } from '../state/repl-state.ts';
import { argumentSummary } from '../../prompt-files/mcp-prompt-arguments.ts';
import { wrapStyled } from '../../shared/text/display-width.ts';
import { sanitizeLine } from '../../shared/text/sanitize.ts';
import { countOf, digits } from '../../shared/text/count-text.ts';

/** Names listed per kind in `/mcp` at most; the rest are counted. */
const MAX_LISTED = 60;
const LABEL_WIDTH = 11;


/** `count` with "of N (why)" when the server listed more than Sylvan kept. */
const counted = (count: number, noun: string, listed: number | undefined, why: string) =>
  listed === undefined ? countOf(count, noun) : `${digits(count)} ${noun}s of ${digits(listed)} (${why})`;

/**
 * `/mcp`: each configured server with its status, its tools, prompts and resources by name
 * (wrapped to the terminal's width), its last error and its last stderr lines. Everything a server
 * said is sanitised.
 */
export function showMcpServers(state: ReplState): void {
  const servers = state.runtime.mcp.summaries();
  if (servers.length === 0) {
    state.print('  No MCP servers configured. Add "mcpServers" to $SYLVAN_HOME/settings.json or .sylvan/settings.json (see docs/mcp.md).');
    return;
  }
  const width = Math.max(40, (process.stdout.columns || 80) - 1);
  for (const server of servers) {
    const ready = server.status === 'ready';
    const counts = ready
      ? [
          counted(server.toolCount, 'tool', server.listedToolCount, 'maxTools, maxToolSchemaBytes'),
          server.prompts.length > 0 ? counted(server.prompts.length, 'prompt', server.listedPromptCount, 'the first 100') : '',
          server.resources.length > 0 ? counted(server.resources.length, 'resource', server.listedResourceCount, 'the first 200') : '',
        ]
      : [];
    const details = [server.transport, ...counts, server.trusted ? 'trusted' : ''].filter(Boolean).join(' · ');
    state.print(`  ${sanitizeLine(server.name)}  ${server.status}  ${state.dim(details)}`);
    if (ready) {
      const name = sanitizeLine(server.name);
      listed(state, width, 'tools', server.toolNames);
      listed(state, width, 'prompts', server.prompts.map((prompt) => [prompt.name, argumentSummary(prompt)].filter(Boolean).join(' ')), `run one as /${name}:NAME`);
      listed(state, width, 'resources', server.resources.map((resource) => resource.name), `@${name}:<Tab> attaches one`);
      for (const problem of server.listProblems) state.print(`    ${state.dim(sanitizeLine(problem))}`);
    }
    if (server.lastError) state.print(`    ${state.dim(`last error: ${sanitizeLine(server.lastError)}`)}`);
    for (const line of server.stderr) state.print(`    ${state.dim(`stderr │ ${sanitizeLine(line).slice(0, 200)}`)}`);
  }
}

/** One kind of a server's names, comma-separated and wrapped under its label; nothing when there are none. */
function listed(state: ReplState, width: number, label: string, names: readonly string[], hint?: string): void {
  if (names.length === 0) return;
  const shown = names.slice(0, MAX_LISTED).map(sanitizeLine);
  const more = names.length > MAX_LISTED ? [`… ${digits(names.length - MAX_LISTED)} more`] : [];
  const text = [...shown, ...more].join(', ') + (hint ? ` (${hint})` : '');
  const indent = 4 + LABEL_WIDTH;
  wrapStyled(text, width - indent).forEach((line, index) => {
    state.print(`${' '.repeat(4)}${(index === 0 ? label : '').padEnd(LABEL_WIDTH)}${state.dim(line)}`);
  });
}

/** `/instructions`: the AGENTS.md files added to the system prompt, as the model gets them. */
export function showInstructions(state: ReplState): void {
  const files = state.runtime.instructionFiles;
  if (files.length === 0) {
    state.print('  No project instructions. Sylvan reads AGENTS.md and SYLVAN.md in this folder and $SYLVAN_HOME/AGENTS.md.');
    return;
  }
  for (const file of files) {
    const cut = file.cutFrom === undefined ? '' : ` (cut: ${digits(file.cutFrom)} bytes in the file)`;
    state.print(`  ${state.dim(`── ${file.label}${cut} · ${sanitizeLine(file.path)}`)}`);
    for (const line of file.text.split('\n')) state.print(`  ${sanitizeLine(line)}`);
  }
}
