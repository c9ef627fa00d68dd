import type { ApprovalScope } from '../../tools/tool-spec.ts';
import type { Choice } from '../input/line-reader-contract.ts';

export type ApprovalAnswer = 'yes' | 'network' | 'always' | 'no' | 'tell';

/**
 * The menu's "always" line, from the scope text of the call (`scope.alwaysLabel`: "this session",
 * "`npm test …` this session", "this domain"). The one place the prompt turns what an "always"
 * covers into words, so a new scope rule only changes the text it passes in.
 */
function alwaysChoiceLabel(scopeText: string): string {
  return `Yes, and always ${scopeText || 'this session'}`;
}

/** The answers to an approval question, in the order shown; no "always" for a call asked every time, "with network" only where offered. */
export function approvalChoices(
  scope: ApprovalScope | undefined,
  options: { withNetwork?: boolean } = {},
): (Choice & { answer: ApprovalAnswer })[] {
  return [
    { key: 'y', label: 'Yes', answer: 'yes' },
    ...(scope?.oneTime ? [] : [{ key: 'a', label: alwaysChoiceLabel(scope?.alwaysLabel ?? ''), answer: 'always' as const }]),
    // A sandboxed command that may reach the network for this one run.
    ...(options.withNetwork ? [{ key: 'w', label: 'Yes, with network (this run only)', answer: 'network' as const }] : []),
    { key: 'n', label: 'No', answer: 'no' },
    { key: 't', label: 'No, and tell it why', answer: 'tell' },
  ];
}
