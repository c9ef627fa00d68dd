import type { ChalkInstance } from 'chalk';
import { liveWidth } from './live-area.ts';
import type { Output } from './render.ts';
import type { ToolCallRecord } from './tool-calls.ts';
import { expandedRows, expandRoom } from './expanded-view.ts';

/**
 * Ctrl+O for one prompt: the first press gives the rows of the last finished tool result, whole, to
 * show above the prompt; the next gives none (collapsed again), and so on.
 */
export function promptOutputToggle(records: () => readonly ToolCallRecord[], colour: ChalkInstance, output: Output): () => readonly string[] {
  let expanded = false;
  return () => {
    expanded = !expanded;
    if (!expanded) return [];
    const record = records().findLast((candidate) => candidate.outcome !== undefined);
    if (!record) return [colour.dim('  No tool result to expand: the last turn called no tools.')];
    return expandedRows(record, colour, Math.min(liveWidth(output), 199), expandRoom((output as { rows?: number }).rows));
  };
}
