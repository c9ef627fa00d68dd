import type { AgentEvent } from '../../agent/loop/events.ts';

/** The dimmed line after an answer that stopped at the model's output limit. */
const CUT_OFF_NOTICE = 'The answer was cut off at the model\'s output limit. Say "continue" for the rest.';

/**
 * Watches a turn's events for a step that ended at the model's output limit (finish reason
 * `length`) with answer text and no tool calls: `see` returns the notice when that step ends. A
 * step whose calls were cut off is not announced: the model is asked to issue them again, so the
 * turn goes on by itself.
 */
export class CutOffWatch {
  private textInStep = false;
  private callsInStep = false;

  see(event: AgentEvent): string | undefined {
    switch (event.type) {
      case 'step-start':
        this.textInStep = false;
        this.callsInStep = false;
        return undefined;
      case 'text-delta':
        if (event.text.trim() !== '') this.textInStep = true;
        return undefined;
      case 'tool-call':
      case 'tool-error':
        this.callsInStep = true;
        return undefined;
      case 'step-end': {
        const cut = event.finishReason === 'length' && this.textInStep && !this.callsInStep;
        this.textInStep = false;
        this.callsInStep = false;
        return cut ? CUT_OFF_NOTICE : undefined;
      }
      default:
        return undefined;
    }
  }
}
