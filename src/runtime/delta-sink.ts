/**
 * Where one model request's deltas go while a host iterates events: the `onDelta` the runtime
 * hands the adapter, publishing `text-delta` and `reasoning-delta` events for the asking agent.
 */
import type { SampleInput } from '../../machines/agent.types.js';
import type { ModelDelta } from '../model/adapter.js';
import type { RuntimeCore } from './core.js';

/** The callback for one request, and what to do when its reply arrives. */
export interface DeltaSink {
  readonly onDelta: (delta: ModelDelta) => void;
  /**
   * The reply arrived: later deltas are ignored, and a reply whose adapter streamed no text
   * is published as one text delta, so every adapter's text reaches the stream before the
   * reply is acted on.
   */
  replied(text: string): void;
  /** The attempt failed: later deltas are ignored (the next attempt streams from its start). */
  close(): void;
}

/** A delta sink for the request `input` describes; deltas after an abort are dropped. */
export function deltaSink(core: RuntimeCore, input: Pick<SampleInput, 'path' | 'turn' | 'step'>, signal: AbortSignal): DeltaSink {
  const { path, turn, step } = input;
  let open = true;
  let streamedText = false;
  return {
    onDelta: (delta) => {
      // An adapter's late or malformed delta is dropped, never thrown back into its stream.
      if (!open || signal.aborted || delta === null || typeof delta !== 'object' || typeof delta.text !== 'string' || delta.text === '') return;
      if (delta.kind === 'text') {
        streamedText = true;
        core.publish({ type: 'text-delta', path, turn, step, text: delta.text });
      } else if (delta.kind === 'reasoning') {
        core.publish({ type: 'reasoning-delta', path, turn, step, text: delta.text });
      }
    },
    close: () => {
      open = false;
    },
    replied: (text) => {
      open = false;
      if (!streamedText && text !== '' && !signal.aborted) core.publish({ type: 'text-delta', path, turn, step, text });
    },
  };
}
