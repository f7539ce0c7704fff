/**
 * Splitting a Markdown file into its YAML front matter and its body, keeping line numbers.
 */
import { DefinitionError } from './definition-error.js';

/** The two halves of a front-matter Markdown file. */
export interface FrontMatterParts {
  /** The YAML between the fences, lines joined with `\n`. */
  readonly yaml: string;
  /** 1-based file line of the first YAML line, so YAML positions map back to the file. */
  readonly yamlFirstLine: number;
  /** Everything after the closing fence, lines joined with `\n`. */
  readonly body: string;
}

const OPENING = /^---[ \t]*$/;
// YAML allows `...` as a document end marker; some tools write it as the closing fence.
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits `text` at its front matter fences. The file must open with a `---` line (after an
 * optional byte order mark) and a later `---` or `...` line must close it. Line endings are
 * normalized to `\n` so CRLF files parse alike.
 *
 * @throws DefinitionError `missing_front_matter` or `unterminated_front_matter`.
 */
export function splitFrontMatter(text: string, file: string): FrontMatterParts {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!OPENING.test(lines[0] ?? '')) {
    throw new DefinitionError({
      code: 'missing_front_matter',
      file,
      line: 1,
      detail: 'missing YAML front matter: the file must start with a "---" line, then name and description, then a closing "---" line',
    });
  }
  const close = lines.findIndex((line, index) => index > 0 && CLOSING.test(line));
  if (close < 0) {
    throw new DefinitionError({
      code: 'unterminated_front_matter',
      file,
      line: 1,
      detail: 'the front matter opened here is never closed by a "---" line',
    });
  }
  return {
    yaml: lines.slice(1, close).join('\n'),
    yamlFirstLine: 2,
    body: lines.slice(close + 1).join('\n'),
  };
}
