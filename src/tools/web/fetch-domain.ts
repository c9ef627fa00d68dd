/** Light on purpose: the approval policy loads it before the SDK. */

/** The host an approval covers: `domain:<host>`, the same form the "always" answer remembers. */
export function fetchDomainOf(input: unknown): string {
  const raw = typeof input === 'object' && input !== null ? (input as { url?: unknown }).url : undefined;
  try {
    return typeof raw === 'string' ? new URL(raw.trim()).hostname.toLowerCase() : '(no url)';
  } catch {
    return '(invalid url)';
  }
}
