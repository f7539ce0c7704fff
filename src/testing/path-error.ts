/**
 * The error a path runner throws when the real machine does not follow a generated path.
 */

/** Where and how a run left its path. */
export interface PathMismatch {
  /** The path's name. */
  readonly path: string;
  /** Index of the failing step (0 is `xstate.init`); -1 for an invariant checked at the end. */
  readonly step: number;
  /** The step's label, or the invariant's name. */
  readonly label: string;
  readonly expected: string;
  readonly actual: string;
}

/** Thrown when a run does not reach the state a step expects, or breaks an invariant. */
export class PathMismatchError extends Error {
  constructor(readonly mismatch: PathMismatch) {
    const where = mismatch.step >= 0 ? `step ${mismatch.step} (${mismatch.label})` : `invariant "${mismatch.label}"`;
    super(`${mismatch.path}\n  at ${where}\n  expected: ${mismatch.expected}\n  actual:   ${mismatch.actual}`);
    this.name = 'PathMismatchError';
  }
}
