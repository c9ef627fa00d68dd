
/** Shorter pieces of a key are too likely to be ordinary text to be worth hiding on their own. */
const MIN_PIECE = 8;
const REDACTED = '[redacted]';
/**
 * Streamed text may show up to this many characters that could begin a key when the next piece is
 * long in coming (an answer's last "s" must not wait for it); the rest of such a key is a form.
 */
export const SHOWN_LEAD = 3;

/**
 * The forms a secret can take in text: itself, each of its lines (a key pasted with a newline is
 * quoted line by line in Node's header errors), each without its first one to three characters
 * (shown at the end of a streamed piece before the rest came), and each of those escaped as inside
 * a JSON string.
 */
function formsOf(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    for (const line of [secret, secret.trim(), ...secret.split(/[\r\n]+/)]) {
      for (let lead = 0; lead <= SHOWN_LEAD; lead++) {
        const piece = line.slice(lead);
        if (piece.trim().length < MIN_PIECE) continue;
        forms.add(piece);
        forms.add(JSON.stringify(piece).slice(1, -1));
      }
    }
  }
  // Longest first, so a whole key is replaced before one of its lines.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The forms of one list of secrets, worked out once: each streamed piece of an answer asks for them. */
const formsCache = new WeakMap<readonly string[], string[]>();
function cachedForms(secrets: readonly string[]): string[] {
  let forms = formsCache.get(secrets);
  if (forms === undefined) formsCache.set(secrets, (forms = formsOf(secrets)));
  return forms;
}

/** `text` with every configured secret (and each line of it) replaced by "[redacted]". Never throws. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const form of cachedForms(secrets)) if (redacted.includes(form)) redacted = redacted.split(form).join(REDACTED);
  return redacted;
}

/**
 * How many characters at the end of `text` could be the start of a secret (of one of its forms):
 * text streamed in pieces keeps them back until the next piece shows whether a key is being quoted.
 * `text` is already scrubbed, so no whole form is left in it.
 */
export function secretStartAtEnd(text: string, secrets: readonly string[]): number {
  let longest = 0;
  const last = text.charCodeAt(text.length - 1);
  for (const form of cachedForms(secrets)) {
    for (let length = Math.min(form.length - 1, text.length); length > longest; length--) {
      if (form.charCodeAt(length - 1) === last && text.endsWith(form.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/**
 * `value` (a tool call's input, as the model wrote it) with the secrets scrubbed from its strings:
 * the call is shown to the user, and a model quoting a key must not put it on the screen.
 */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return value;
  }
  if (json === undefined) return value;
  const redacted = redactSecrets(json, secrets);
  if (redacted === json) return value;
  try {
    return JSON.parse(redacted) as unknown;
  } catch {
    return REDACTED;
  }
}
