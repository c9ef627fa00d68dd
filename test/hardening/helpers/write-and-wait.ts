// Child process for the atomic-write test: writes `argv[3]` megabytes through write_file into
// `argv[2]`/target.txt, printing "writing" just before, so the parent can kill it mid-write.
import { createWriteFileTool } from '../../../src/tools/files/write-file.ts';

const [workspaceRoot, megabytes] = process.argv.slice(2) as [string, string];
const content = 'n'.repeat(Number(megabytes) * 1_000_000);
const writeTool = createWriteFileTool({ workspaceRoot });
process.stdout.write('writing\n');
await writeTool.execute({ path: 'target.txt', content }, { toolCallId: 'call-1', messages: [], context: {} });
process.stdout.write('done\n');
