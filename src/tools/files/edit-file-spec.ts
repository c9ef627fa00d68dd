import type { ApprovalScope, ToolSpec } from '../tool-spec.ts';

/** `edit_file`: replaces text in one file; an "always" covers further edits of the same file this session. */
export const editFileSpec: ToolSpec<'edit_file'> = {
  name: 'edit_file',
  otherNames: ['Edit'],
  kind: 'edit',
  scope: editScope,
  describe: async (input, context) => {
    const { describeEdit } = await import('./edit-file.ts');
    return describeEdit(context.workspaceRoot, input as import('./edit-file.ts').EditFileInput, { secretPatterns: context.secretPatterns });
  },
  checkpoint: 'file',
};

function editScope(input: unknown): ApprovalScope {
  const given = (input as { path?: unknown } | null)?.path;
  const file = typeof given === 'string' ? given.replace(/\\/g, '/').replace(/^(\.\/)+/, '') : '';
  return { kind: 'edit', key: `edit:${file}`, alwaysLabel: `edits of ${file} this session` };
}
