import type { ModelMessage } from 'ai';

/**
 * How /compact marks its summary: a user message whose text starts with this, followed by the
 * assistant's reply. When it opens the history, `fitToWindow` keeps that pair ahead of every turn but
 * the current one.
 */
export const COMPACTION_SUMMARY_PREFIX = 'Summary of the earlier conversation';

/** True for the user message /compact writes at the start of a compacted history. */
export function isCompactionSummary(message: ModelMessage | undefined): boolean {
  if (message?.role !== 'user') return false;
  const content = message.content;
  if (typeof content === 'string') return content.startsWith(COMPACTION_SUMMARY_PREFIX);
  const first = content[0];
  return first?.type === 'text' && first.text.startsWith(COMPACTION_SUMMARY_PREFIX);
}
