/**
 * The error of class `type` that `fn` throws. Anything else thrown is rethrown, and throwing
 * nothing fails, so a test can assert on the error's fields without a try/catch of its own.
 */
export function thrown<E extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name} to be thrown`);
}
