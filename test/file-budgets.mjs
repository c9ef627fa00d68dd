// The test files that start processes (the built CLI, a terminal, MCP servers, shells), each with
// its time budget on an idle 2-core machine and what that time waits for. `npm test` runs every
// other file first (in-process, quick), then these, longest budget first so the runner slots
// finish together; the closing reporter lists any file over its budget. A budget is a statement to
// keep, not a timeout: the hard bound per file is --test-timeout in test/run-suite.mjs.
//
// A new file that starts the CLI belongs here: run-suite.mjs names any it finds missing.

/** @type {Record<string, { seconds: number; waitsFor: string }>} */
export const SPAWNING_FILES = {
  'test/cli/terminal-hang-up.test.ts': { seconds: 10, waitsFor: 'two REPLs under script: one whose terminal is closed at the prompt, one sent SIGHUP mid-turn; each SessionEnd hook' },
  'test/cli/status-line-tmux.test.ts': { seconds: 10, waitsFor: 'two tmux sessions with the mock model: a status line script, and one that hangs until it is killed' },
  'test/cli/budgets.test.ts': { seconds: 15, waitsFor: '17 in-process CLI runs against a loopback DashScope; two wait about 1 s for a time budget' },
  'test/cli/acp-network-grant.test.ts': { seconds: 10, waitsFor: 'one run of sylvan --acp: two sandboxed commands, one granted the network' },
  'test/cli/acp-real-client.test.ts': { seconds: 10, waitsFor: 'one acpx run (on Node 22) starting sylvan --acp for one prompt' },
  'test/cli/acp-stdout-protocol-only.test.ts': { seconds: 15, waitsFor: '5 runs of sylvan --acp: a missing key, a refused key, a key the model quotes, a 500, two MCP servers from the editor that die or garble mid-call' },
  'test/cli/acp-editor-turns.test.ts': { seconds: 10, waitsFor: 'one sylvan --acp holding 8 sessions, driven by the SDK client against a loopback DashScope (one command stopped by session/cancel), 2 more (a session the REPL saved, the client\'s fs) and one REPL run' },
  'test/cli/memory.test.ts': { seconds: 30, waitsFor: 'one built-CLI run of 300 piped turns in a small window (~12 s), a CLI killed mid-turn, a terminal session; the other 12 runs are in-process' },
  'test/cli/faults.test.ts': { seconds: 15, waitsFor: '2 built-CLI runs (a 401, Ctrl-C) beside 15 in-process runs; two are cut off by --timeout 2, two wait for a 1 s and 2 s retry backoff' },
  'test/cli/terminal-output.test.ts': { seconds: 20, waitsFor: '10 CLI runs and 2 terminal (tmux) sessions' },
  'test/cli/small-jobs.test.ts': { seconds: 15, waitsFor: '2 built-CLI runs (a command\'s environment, Ctrl-C), 6 in-process runs and a terminal session' },
  'test/mcp/mcp-servers.test.ts': { seconds: 15, waitsFor: '6 CLI runs (one a process, for what it leaves running), each starting the reference MCP servers (server-everything, server-filesystem) or test servers' },
  'test/hardening/sessions.test.ts': { seconds: 15, waitsFor: '5 CLI runs, one killed mid-turn and one holding a session; 4 more in-process' },
  'test/cli/exit-screen.test.ts': { seconds: 20, waitsFor: '6 terminal (tmux) sessions, each ended with Ctrl-C twice' },
  'test/cli/line-editor-pty.test.ts': { seconds: 15, waitsFor: '5 terminal sessions typed at key by key, one before the CLI has started' },
  'test/mcp/server-everything-prompts.test.ts': { seconds: 10, waitsFor: 'one terminal session of 5 turns and 3 in-process print-mode runs, each starting server-everything' },
  'test/mcp/mcp-lifecycle.test.ts': { seconds: 15, waitsFor: '3 CLI runs with a test MCP server, ended by SIGINT, SIGTERM and SIGHUP' },
  'test/hardening/denial-reasons.test.ts': { seconds: 10, waitsFor: 'one terminal session answering an approval (and one in-process run)' },
  'test/cli/built-cli.test.ts': { seconds: 15, waitsFor: '9 runs of bin/sylvan.js (--help, --version, a mock turn, parts of the install gone) and two builds, one watched file by file' },
  'test/cli/custom-commands-export-copy.test.ts': { seconds: 10, waitsFor: 'one terminal (tmux) session (and 2 in-process runs against loopback servers)' },
  'test/cli/interrupt-pty.test.ts': { seconds: 10, waitsFor: 'one terminal session interrupted mid-turn' },
  'test/cli/todo-tmux.test.ts': { seconds: 15, waitsFor: 'one tmux session (a turn held open while its checklist is read), then one in-process piped --resume run' },
  'test/cli/tool-output-tmux.test.ts': { seconds: 15, waitsFor: 'one tmux session of four turns: a search, a 300-line command, a command stopped with Esc after ~1 s' },
  'test/cli/subagents-tmux.test.ts': { seconds: 10, waitsFor: 'one tmux session of four turns: a subagent\'s write and /undo, a question in its name, three subagents stopped by Ctrl-C' },
  'test/cli/line-editor-tmux.test.ts': { seconds: 10, waitsFor: 'one tmux session' },
  'test/cli/terminal-polish-tmux.test.ts': { seconds: 15, waitsFor: '2 terminal (tmux) sessions: the mock model at 60 then 120 columns, and one against a loopback OpenAI-compatible server' },
  'test/cli/resume-tmux.test.ts': { seconds: 20, waitsFor: 'two tmux sessions against a loopback DashScope: three turns cut by Esc, then the picker, the resumed transcript, Ctrl-R, Ctrl-G and /resume' },
  'test/cli/live-input-tmux.test.ts': { seconds: 15, waitsFor: 'two tmux sessions (120 and 60 columns), one waits for a 1 s retry-after' },
  'test/hardening/pipes.test.ts': { seconds: 10, waitsFor: '2 CLI runs into pipes' },
  'test/mcp/server-environment.test.ts': { seconds: 5, waitsFor: 'two short-lived stdio servers, each started by an MCP hub, and twelve hubs of a sleep each' },
  'test/mcp/sandboxed-server-start.test.ts': { seconds: 5, waitsFor: 'two starts of the test MCP server in bubblewrap, the first failed on purpose' },
  'test/tools/shell/exit-hook.test.ts': { seconds: 10, waitsFor: 'three children each running a command, ended by process.exit, SIGTERM and SIGKILL (the watchdog)' },
  'test/helpers/children.test.ts': { seconds: 10, waitsFor: 'child processes killed when their file ends, alone and in a shard of two files' },
  'test/mcp/mcp-bounds.test.ts': { seconds: 10, waitsFor: '7 in-process CLI runs, each with a test MCP server process flooding 11 MB and 50 MB messages, offering 10,011 or 404 tools, or 200 resources' },
  'test/hardening/sylvan-home-from-folder.test.ts': { seconds: 10, waitsFor: '2 CLI runs under --yes: a folder whose .env names SYLVAN_HOME, and SYLVAN_HOME set elsewhere' },
  'test/hardening/home-folder-credentials.test.ts': { seconds: 10, waitsFor: '2 CLI runs in a home folder, under --yes and in auto-edit mode' },
  'test/mcp/server-ancestor-environ.test.ts': { seconds: 10, waitsFor: '2 print-mode runs, each starting a stdio MCP server that scans /proc' },
  'test/hardening/own-files.test.ts': { seconds: 15, waitsFor: '9 CLI runs reading FIFOs, devices and a 1 GB file' },
  'test/hardening/write-safety.test.ts': { seconds: 10, waitsFor: 'three 100 MB writers killed mid-write, 300 racing writes (CPU-bound, stopped at 15 s)' },
  'test/cli/memory-question-tmux.test.ts': { seconds: 10, waitsFor: 'one tmux session: /memory add answered yes, a # line answered no, /memory edit with a scripted editor, one turn' },
  'test/cli/modes-tmux.test.ts': { seconds: 10, waitsFor: '5 terminal (tmux) sessions cycling the approval modes' },
  'test/cli/first-session-tmux.test.ts': { seconds: 10, waitsFor: 'one tmux session against a loopback DashScope: Ctrl-L and typing, two approvals, /export, a !command in bubblewrap' },
  'test/mcp/mcp-start-timeout-tmux.test.ts': { seconds: 10, waitsFor: 'one tmux session whose MCP server never answers within its 1 s start limit' },
  'test/cli/undo-and-rewind-repl.test.ts': { seconds: 10, waitsFor: '2 terminal sessions undoing and rewinding, one resumed with --continue' },
  'test/cli/sandbox.test.ts': { seconds: 20, waitsFor: '8 CLI runs, commands in bubblewrap, without it, or with a bwrap that cannot start' },
  'test/cli/network-grant-tmux.test.ts': { seconds: 10, waitsFor: 'one tmux session: a command granted the network and stopped, then a second with its call id' },
  'test/cli/sandbox-escapes.test.ts': { seconds: 15, waitsFor: '6 CLI runs: a command at .git in bubblewrap, HEAD made a FIFO and a link to /dev/zero then a new start each, a command at host Unix sockets' },
  'test/cli/checkpoints-disk-full.test.ts': { seconds: 10, waitsFor: 'one terminal session of 5 turns with the checkpoints on a full 1 MB tmpfs (skipped when not root)' },
  'test/cli/undo-after-commands.test.ts': { seconds: 20, waitsFor: '2 terminal sessions of 10 and 9 turns: commands undone, a 21 MB file made, 16 parallel edits, a FIFO .gitignore, the shadow repository deleted and locked' },
  'test/docs/global-install.test.ts': { seconds: 10, waitsFor: "one offline `npm install -g .` into a temp prefix, then one print-mode run of the installed command" },
  'test/cli/undo-after-interrupt-tmux.test.ts': { seconds: 10, waitsFor: 'one tmux session: a command that ignores SIGTERM stopped with Esc (2 s to SIGKILL), then /undo' },
  'test/mcp/mcp-descendants.test.ts': { seconds: 10, waitsFor: "3 CLI runs whose MCP server's setsid grandchild must end with them, one killed with SIGKILL" },
  'test/hooks/hook-events-cli.test.ts': { seconds: 15, waitsFor: '2 built-CLI runs (a hook\'s environment, a command in bubblewrap) and 10 in-process runs against a loopback model, each running shell-script hooks' },
  'test/hooks/notification-tmux.test.ts': { seconds: 10, waitsFor: 'one terminal (tmux) session answering an approval' },
  'test/hooks/hook-processes-cli.test.ts': { seconds: 10, waitsFor: '2 built-CLI runs (a hook past its timeout, one ended by Ctrl-C) and 3 in-process runs (a project hook before, at and after its trust)' },
};

/**
 * What in a file's source means it starts the built CLI (or a terminal) itself: a run of
 * test/helpers/cli.ts that is not `inProcess: true`, the built CLI by its path, a terminal or an ACP client.
 */
export const STARTS_THE_CLI = /\b(startCli|runCliTimed)\(|\bcliEntry\b|\brunCli\((?!\{ inProcess: true)|helpers\/(terminal|acp-client)\.ts/;

/**
 * The in-process files that take longest in a shard (seconds, idle 2-core machine, Node 20), so
 * run-suite.mjs can split the files evenly between the shards; any other file counts as 0.2 s. Only
 * the balance depends on these: a stale number costs a few seconds of one shard waiting for the other.
 * @type {Record<string, number>}
 */
export const IN_PROCESS_SECONDS = {
  'test/cli/web.test.ts': 3.2,
  'test/cli/provider-errors.test.ts': 2.8,
  'test/cli/provider-traffic.test.ts': 2.3,
  'test/cli/error-lines-by-meaning.test.ts': 1.2,
  'test/cli/cut-off-answer.test.ts': 1.1,
  'test/tools/shell/run-command.test.ts': 4.6,
  'test/tools/files/search-files.test.ts': 1.0,
  'test/import-cycles.test.ts': 1.3,
  'test/function-length.test.ts': 1.4,
  'test/checkpoints/undo-restores-files.test.ts': 1.7,
  'test/checkpoints/checkpoint-limits.test.ts': 2.5,
  'test/providers/cache-markers.test.ts': 1.2,
  'test/tools/web/web-search.test.ts': 1.0,
  'test/providers/stream-line-limit.test.ts': 1.0,
  'test/providers/mock/mock-model.test.ts': 1.0,
  'test/tools/web/web-fetch.test.ts': 0.8,
  'test/agent/agent-loop.test.ts': 0.7,
  'test/runtime.test.ts': 0.7,
  'test/hooks/subagent-hooks-cli.test.ts': 1.0,
};

/**
 * In-process files that share work read once per process (a module-level cache in a helper, or a
 * large module), so a shard runs each group's files together: the layer and import-cycle checks
 * read src/'s imports once (test/helpers/source-imports.ts, ~1.3 s), not once each, and the
 * function-length check loads the same TypeScript compiler (9 MB) that reading them loaded. A
 * group runs last in its shard (run-suite.mjs).
 * @type {string[][]}
 */
export const SAME_SHARD = [['test/import-cycles.test.ts', 'test/layers.test.ts', 'test/function-length.test.ts']];

/**
 * In-process files that must have a process of their own rather than share a shard with other
 * files (test/helpers/shard.mjs), each with the reason. Keep it short: a file that changes the
 * process restores it in its own `after` hook instead.
 * @type {Record<string, string>}
 */
export const RUN_ALONE = {};
