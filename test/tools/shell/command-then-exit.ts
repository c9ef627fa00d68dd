// Child for exit-hook.test.ts: starts a long command through run_command, prints its process
// group (its command ignores SIGTERM), then ends the way argv[2] says ("exit": process.exit; "wait": waits to be killed).
import { createRunCommandTool } from '../../../src/tools/shell/run-command.ts';

const how = process.argv[2];
let reported = false;
const tool = createRunCommandTool({
  workspaceRoot: process.cwd(),
  onProgress: (_id, text) => {
    const group = /group (\d+)/.exec(text)?.[1];
    if (!group || reported) return;
    reported = true;
    process.stdout.write(`${group}\n`, () => {
      if (how === 'exit') process.exit(0);
    });
  },
});
void (tool.execute as (input: unknown, options: unknown) => Promise<string>)(
  // Deaf to SIGTERM, as a stubborn command is: only SIGKILL ends it.
  { command: 'trap "" TERM; echo "group $$"; sleep 100 & sleep 100' },
  { toolCallId: 'call-1', messages: [] },
);
