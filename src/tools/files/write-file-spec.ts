import type { ToolSpec } from '../tool-spec.ts';

/** `write_file`: creates or replaces a file; an "always" covers every write this session. */
export const writeFileSpec: ToolSpec<'write_file'> = {
  name: 'write_file',
  otherNames: ['Write'],
  kind: 'write',
  scope: () => ({ kind: 'write', key: 'write_file', alwaysLabel: 'this session' }),
  describe: async (input, context) => {
    const { describeWrite } = await import('./write-file.ts');
    return describeWrite(context.workspaceRoot, input as import('./write-file.ts').WriteFileInput, { secretPatterns: context.secretPatterns });
  },
  checkpoint: 'file',
};
