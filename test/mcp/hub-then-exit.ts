// Run by server-exit-hook.test.ts: starts an McpHub with one stdio server, prints the server's
// pid once it is ready, then leaves through process.exit() without calling hub.close(): only the
// process-exit hook can end the server. (Run from source through tsx: it is the hub under test,
// not the CLI.) Arguments: the server script, its PID_FILE, its EVENT_FILE, the workspace.
import { McpHub } from '../../src/mcp/mcp-hub.ts';

const [server, pidFile, eventFile, workspaceRoot] = process.argv.slice(2) as [string, string, string, string];
const hub = new McpHub({
  servers: { probe: { command: process.execPath, args: [server], env: { PID_FILE: pidFile, EVENT_FILE: eventFile } } },
  workspaceRoot,
  startTimeoutMs: 20_000,
  callTimeoutMs: 20_000,
});
await hub.settled(20_000);
const [pid] = hub.pids();
if (hub.summaries()[0]?.status !== 'ready' || pid === undefined) {
  process.stderr.write(`the server did not start: ${JSON.stringify(hub.summaries())}\n`);
  process.exit(3);
}
process.stdout.write(`${pid}\n`);
process.exit(0);
