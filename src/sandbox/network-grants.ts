/**
 * One-call network permissions: the approval prompt's "run with network" grants the call it was
 * asked about, and `run_command` takes the grant when that call starts. A grant is bound to the
 * exact call — its id and its input — and used up by the first start of a call with that id,
 * whether it then runs or is found interrupted; the REPL drops what is left when a turn ends. A
 * model may reuse a call id in a later step or turn, so an id alone must never carry a grant over
 * to another command. Outside the agent loop on purpose: the loop passes only yes or no on to the tool.
 */
export class NetworkGrants {
  private readonly granted = new Map<string, string>();

  grant(toolCallId: string, input: unknown): void {
    this.granted.set(toolCallId, inputKey(input));
  }

  /** Whether this call, id and input, was granted the network; any grant under the id is used up. */
  take(toolCallId: string, input: unknown): boolean {
    const granted = this.granted.get(toolCallId);
    this.granted.delete(toolCallId);
    return granted !== undefined && granted === inputKey(input);
  }

  /** Drops every grant not yet used: the turn they were given in has ended. */
  clear(): void {
    this.granted.clear();
  }
}

const inputKey = (input: unknown): string => JSON.stringify(input) ?? '';
