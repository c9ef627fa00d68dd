
/** Shorter pieces of a key are too likely to be ordinary text to be worth hiding on their own. */
const MIN_PIECE = 8;
const REDACTED = '[redacted]';

/**
 * The forms a secret can take in text: itself, each of its lines (a key pasted with a newline is
 * quoted line by line in Node's header errors), and each of those escaped as inside a JSON string.
 */
function formsOf(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    for (const piece of [secret, secret.trim(), ...secret.split(/[\r\n]+/)]) {
      if (piece.trim().length < MIN_PIECE) continue;
      forms.add(piece);
      forms.add(JSON.stringify(piece).slice(1, -1));
    }
  }
  // Longest first, so a whole key is replaced before one of its lines.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every configured secret (and each line of it) replaced by "[redacted]". Never throws. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const form of formsOf(secrets)) if (redacted.includes(form)) redacted = redacted.split(form).join(REDACTED);
  return redacted;
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
