/**
 * The setup wire tests share: a provider stand-in started for the file (`useStandIn`), and
 * (from `providers.ts`) the real provider packages pointed at it and readers of a recorded
 * request in each API's own shape.
 */
import { afterAll, beforeAll } from 'vitest';
import { startStandIn, type StandIn, type StandInOptions } from './stand-in/index.js';

export { answersToolResult, DEFAULT_MODEL_IDS, list, PROVIDER_IDS, WIRE_APIS, wireModel, type Json } from './providers.js';

/**
 * Starts a stand-in before the file's tests and closes it after them. Read it through the
 * returned getter (it exists once `beforeAll` ran).
 */
export function useStandIn(options: StandInOptions = {}): () => StandIn {
  let standIn: StandIn | undefined;
  beforeAll(async () => {
    standIn = await startStandIn(options);
  });
  afterAll(async () => {
    await standIn?.close();
  });
  return () => {
    if (standIn === undefined) throw new Error('useStandIn: the stand-in starts in beforeAll; read it inside a test');
    return standIn;
  };
}

