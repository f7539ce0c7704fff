/**
 * The one Ajv instance that validates JSON Schemas (output schemas and host tools' plain JSON
 * Schemas), created the first time a schema is compiled: Ajv is among the costliest modules to
 * load, and most sessions never compile a schema.
 *
 * JSON Schema draft 2020-12 (which also reads the common draft-07 keywords), with `allErrors`
 * so one message can name every problem. Unknown keywords are allowed: schemas come from role
 * files and schema libraries written for other tools.
 *
 * `addUsedSchema: false`: a compiled schema's `$id` is not registered in the instance, so two
 * schemas with the same `$id` (two roles, a schema edited between sessions) never clash, and
 * a schema's references still resolve within itself. Nothing here adds schemas by `$id`.
 *
 * `code.regExp`: `pattern` and `patternProperties` run on RE2 (see `linear-regexp.ts`), in
 * time linear in the text, because the text is a model's.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { linearRegExp } from './linear-regexp.js';

let instance: Ajv2020 | undefined;

/** The shared Ajv 2020 instance. */
export function jsonSchemaAjv(): Ajv2020 {
  if (instance === undefined) {
    const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
    instance = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, code: { regExp: linearRegExp } });
  }
  return instance;
}
