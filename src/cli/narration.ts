/**
 * The demo's narration of what agents decide, from the runtime's event stream: the text a
 * reply streamed before its tool calls (why it acts), then each coordination call (spawns,
 * messages, cancels, closes). A final reply's text is left to the turn or result report.
 */
import type { JsonValue, RuntimeStreamEvent } from '../index.js';
import { preview } from './tree-view.js';

/** A one-line description of a coordination tool call, or undefined for other tools. */
export function describeCall(call: { readonly name: string; readonly arguments: JsonValue }): string | undefined {
  const args = (typeof call.arguments === 'object' && call.arguments !== null && !Array.isArray(call.arguments) ? call.arguments : {}) as Record<string, unknown>;
  const str = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '?');
  switch (call.name) {
    case 'Agent': {
      const details = [args['role'] !== undefined ? `role ${str(args['role'])}` : undefined, `context ${args['context'] !== undefined ? str(args['context']) : args['role'] !== undefined ? "(the role's default)" : '(the default)'}`];
      return `Agent → ${str(args['task_name'])} (${details.filter((d) => d !== undefined).join(', ')})`;
    }
    case 'send_message':
      return `send_message → ${str(args['agent_id'])}: "${preview(str(args['message']), 80)}"`;
    case 'cancel_agent':
    case 'close_agent':
      return `${call.name} → ${str(args['agent_id'])}`;
    default:
      return undefined;
  }
}

/** Turns stream events into narration lines (`who`, `text`). */
export class Narrator {
  /** Text streamed by each agent's current model request, keyed by path. */
  private readonly streamed = new Map<string, { readonly request: string; text: string }>();

  constructor(private readonly narrate: (who: string, text: string) => void) {}

  handle(event: RuntimeStreamEvent): void {
    switch (event.type) {
      case 'text-delta': {
        const request = `${event.turn}/${event.step}`;
        const current = this.streamed.get(event.path);
        if (current?.request === request) current.text += event.text;
        else this.streamed.set(event.path, { request, text: event.text });
        return;
      }
      case 'tool-call-started': {
        // The first call of a reply says why, with the text the reply streamed before it.
        const why = this.streamed.get(event.path)?.text.trim();
        this.streamed.delete(event.path);
        if (why) this.narrate(event.path, preview(why, 150));
        const text = describeCall({ name: event.toolName, arguments: event.args });
        if (text !== undefined) this.narrate(event.path, text);
        return;
      }
      case 'turn-ended':
      case 'subagent-settled':
        this.streamed.delete(event.path);
        return;
      default:
        return;
    }
  }
}
