/**
 * Showing an arbitrary given value inside an error message.
 */

/** `value` as a message should quote it: strings in JSON quotes, objects as JSON, long text cut at 80 characters. */
export function quote(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'object' && value !== null) text = safeJson(value);
  else text = String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
