import { cutToWidth } from './display-width.ts';
import { previewValue } from './preview-value.ts';
import { sanitizeLine } from './sanitize.ts';

/** The widest a one-line summary is by default, in terminal columns. */
const MAX_SUMMARY = 160;
/** One line of anything: the first line of text, whitespace squeezed, sanitised, cut to `width` terminal columns. */
export function oneLine(value: unknown, width = MAX_SUMMARY): string {
  const text = typeof value === 'string' ? value : previewValue(value, width + 1);
  return cutToWidth(sanitizeLine(text.replace(/\s+/g, ' ').trim()), width);
}

/** `get_weather(city: "北京")` — how a call is shown (sanitised: the name and input came from the model). */
export function formatCall(toolName: string, input: unknown): string {
  toolName = sanitizeLine(toolName);
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const args = Object.entries(input as Record<string, unknown>)
      .map(([key, value]) => `${oneLine(key, 40)}: ${oneLine(previewValue(value, 200), 60)}`)
      .join(', ');
    return `${oneLine(toolName, 60)}(${oneLine(args, 160)})`;
  }
  return `${oneLine(toolName, 60)}(${input === undefined ? '' : oneLine(previewValue(input, 200), 80)})`;
}
