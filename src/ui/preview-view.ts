import type { ChalkInstance } from 'chalk';
import type { CallDescription } from './approval-prompt.ts';

/**
 * The preview under an approval question, indented with "  │ ": dimmed, or for a unified diff,
 * added lines green, removed lines red and hunk headers cyan (plain when colour is off). The
 * preview arrives sanitised; only styling is added here.
 */
export function formatPreview(description: CallDescription, colour: ChalkInstance): string {
  const lines = description.preview.split('\n');
  return lines
    .map((line) => {
      const indented = `  │ ${line}`;
      if (description.previewFormat !== 'diff') return colour.dim(indented);
      if (line.startsWith('+++') || line.startsWith('---')) return colour.bold(indented);
      if (line.startsWith('+')) return colour.green(indented);
      if (line.startsWith('-')) return colour.red(indented);
      if (line.startsWith('@@')) return colour.cyan(indented);
      return colour.dim(indented);
    })
    .join('\n');
}
