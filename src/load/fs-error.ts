/**
 * Recognizing Node file system errors by code, without casting to `any`.
 */

/** Whether `error` is a Node system error with one of the given codes (`ENOENT`, …). */
export function hasErrorCode(error: unknown, ...codes: readonly string[]): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    codes.includes(error.code)
  );
}
