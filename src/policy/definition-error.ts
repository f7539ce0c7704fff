/**
 * The one error an agent definition file can raise, located by file, line and key.
 */

/** Why a definition file was refused. */
export type DefinitionErrorCode =
  /** The file or its directory could not be read (other than a missing directory). */
  | 'read_failed'
  /** The file does not start with a `---` front matter line. */
  | 'missing_front_matter'
  /** The opening `---` has no closing `---` (or `...`) line. */
  | 'unterminated_front_matter'
  /** The front matter is not valid YAML. */
  | 'yaml_syntax'
  /** The front matter is valid YAML but not a mapping of keys to values. */
  | 'not_a_mapping'
  /** A key is not a plain scalar name (for example a list used as a key). */
  | 'invalid_key'
  /** The same key appears twice in one front matter block. */
  | 'duplicate_key'
  /** A required key (`name`, `description`) is absent. */
  | 'missing_key'
  /** A key has a value of the wrong type or outside its allowed set. */
  | 'invalid_value'
  /** Two files of the same directory define the same agent name. */
  | 'duplicate_name'
  /** A symbolic link in an agents folder points outside it (and following such links is off). */
  | 'link_outside';

/** Where and why a definition failed; the parts the message is built from. */
export interface DefinitionErrorInit {
  readonly code: DefinitionErrorCode;
  /** The file as the caller named it (loaders pass the joined directory path). */
  readonly file: string;
  /** 1-based line in the file, when the problem has a position. */
  readonly line?: number;
  /** The front matter key at fault, when there is one. */
  readonly key?: string;
  /** What is wrong, without the location prefix. */
  readonly detail: string;
}

/**
 * A malformed or unreadable agent definition. The message is
 * `file:line: key "k": detail` (line and key omitted when unknown) so that an editor or
 * terminal can jump straight to the fault; the parts stay available as typed fields.
 */
export class DefinitionError extends Error {
  override readonly name = 'DefinitionError';
  readonly code: DefinitionErrorCode;
  readonly file: string;
  readonly line: number | undefined;
  readonly key: string | undefined;
  /** The message without its `file:line: key "k":` prefix. */
  readonly detail: string;

  constructor(init: DefinitionErrorInit, options?: ErrorOptions) {
    super(formatLocated(init), options);
    this.code = init.code;
    this.file = init.file;
    this.line = init.line;
    this.key = init.key;
    this.detail = init.detail;
  }
}

/** `file:line: key "k": detail`, skipping the parts that are not known. */
export function formatLocated(init: Omit<DefinitionErrorInit, 'code'>): string {
  const where = init.line === undefined ? init.file : `${init.file}:${init.line}`;
  const key = init.key === undefined ? '' : `key "${init.key}": `;
  return `${where}: ${key}${init.detail}`;
}
