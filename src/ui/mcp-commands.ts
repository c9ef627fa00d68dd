import type { ReplState } from './repl-state.ts';
import { sanitizeLine } from './sanitize.ts';

/** `/mcp`: each configured server with its status, tool count, last error and last stderr lines. */
export function showMcpServers(state: ReplState): void {
  const servers = state.runtime.mcp?.summaries() ?? [];
  if (servers.length === 0) {
    state.print('  No MCP servers configured. Add "mcpServers" to $SYLVAN_HOME/settings.json or .sylvan/settings.json (see the README).');
    return;
  }
  for (const server of servers) {
    const listed = server.listedToolCount === undefined ? '' : ` of ${server.listedToolCount.toLocaleString('en-US')} (maxTools, maxToolSchemaBytes)`;
    const tools = server.status === 'ready' ? `${server.toolCount} tool${server.toolCount === 1 && !listed ? '' : 's'}${listed}` : '';
    const details = [server.transport, tools, server.trusted ? 'trusted' : ''].filter(Boolean).join(' · ');
    state.print(`  ${sanitizeLine(server.name)}  ${server.status}  ${state.dim(details)}`);
    if (server.lastError) state.print(`    ${state.dim(`last error: ${sanitizeLine(server.lastError)}`)}`);
    for (const line of server.stderr) state.print(`    ${state.dim(`stderr │ ${sanitizeLine(line).slice(0, 200)}`)}`);
  }
}

/** `/instructions`: the AGENTS.md files added to the system prompt, as the model gets them. */
export function showInstructions(state: ReplState): void {
  const files = state.runtime.instructionFiles ?? [];
  if (files.length === 0) {
    state.print('  No project instructions. Sylvan reads AGENTS.md and SYLVAN.md in this folder and $SYLVAN_HOME/AGENTS.md.');
    return;
  }
  for (const file of files) {
    const cut = file.cutFrom === undefined ? '' : ` (cut: ${file.cutFrom.toLocaleString('en-US')} bytes in the file)`;
    state.print(`  ${state.dim(`── ${file.label}${cut} · ${sanitizeLine(file.path)}`)}`);
    for (const line of file.text.split('\n')) state.print(`  ${sanitizeLine(line)}`);
  }
}
