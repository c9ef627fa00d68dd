import type { ToolResultOutput } from './tool-execution.ts';

/** A result's text as the model reads it: text and errors as they are, anything else as JSON. */
export function outputText(output: ToolResultOutput): string {
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  if (output.type === 'execution-denied') return output.reason ?? '';
  return JSON.stringify('value' in output ? output.value : output) ?? '';
}

/** The result with a note of Sylvan's after it, kept in the same part so every call still has exactly one result. */
export function withNote(output: ToolResultOutput, note: string): ToolResultOutput {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return { ...output, value: `${output.value}\n\n${note}` };
    case 'execution-denied':
      return { ...output, reason: `${output.reason ?? 'Not run.'}\n\n${note}` };
    case 'content':
      return { ...output, value: [...output.value, { type: 'text', text: note }] };
    default:
      return { type: 'text', value: `${outputText(output)}\n\n${note}` };
  }
}
