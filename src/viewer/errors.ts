/**
 * The viewer's errors: a stable code and a message that names the file or the address.
 */

/** Why the viewer cannot show something. */
export type ViewerErrorCode = 'unreadable_file' | 'unknown_format' | 'page_missing' | 'listen_failed';

/** A viewer error with a stable code. */
export class ViewerError extends Error {
  override readonly name = 'ViewerError';
  constructor(
    readonly code: ViewerErrorCode,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}
