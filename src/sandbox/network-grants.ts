/**
 * One-call network permissions: the approval prompt's "run with network" grants the call it was
 * asked about (by tool call id), and `run_command` takes the grant when that call runs. Outside the
 * agent loop on purpose: the loop passes only yes or no on to the tool.
 */
export class NetworkGrants {
  private readonly granted = new Set<string>();

  grant(toolCallId: string): void {
    this.granted.add(toolCallId);
  }

  /** Whether the call was granted the network; the grant is used up. */
  take(toolCallId: string): boolean {
    return this.granted.delete(toolCallId);
  }
}
