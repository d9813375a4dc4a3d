/**
 * The part of the Standard Schema spec (https://standardschema.dev, v1) this project uses: a
 * schema is any value with a `~standard.validate`. zod, valibot and arktype implement it, so the
 * envelope, the inbox and the outbox depend on this interface, not on a schema library; the
 * domain (`libs/contracts`) chooses zod. `jsonSchema` is the Standard JSON Schema extension
 * (zod 4.2 and later), read by {@link jsonSchemaOf}.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: { readonly input: (options: { readonly target: JsonSchemaTarget }) => Record<string, unknown> };
  };
}

/** The JSON Schema dialects this project publishes: AsyncAPI's payloads (draft-07) and OpenAPI 3.0 request bodies. */
export type JsonSchemaTarget = 'draft-07' | 'openapi-3.0';

/** What `validate` returns: the value, or the issues (`issues` present means invalid). */
export type StandardResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };

export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** `items[0].quantity` from `['items', 0, 'quantity']`, under `root` when given (`payload.items[0].quantity`). */
function pathText(root: string, path: StandardIssue['path']): string {
  let text = root;
  for (const segment of path ?? []) {
    const key = typeof segment === 'object' ? segment.key : segment;
    text = typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key);
  }
  return text;
}

/**
 * The problems of `value` against `schema`, each as text that names its field
 * (`payload.items[0].quantity must be an integer from 1 to 1000`); empty means valid. These texts
 * become dead-letter reasons, outbox rejections and HTTP 400 details.
 *
 * Synchronous on purpose: a message is validated inside a database transaction, and an
 * asynchronous schema (one that does I/O) has no place there, so one is refused loudly.
 */
export function schemaProblems(schema: StandardSchemaV1, value: unknown, root = ''): string[] {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) throw new TypeError('schemaProblems: asynchronous schemas are not supported');
  if (!result.issues) return [];
  return result.issues.map((issue) => {
    const field = pathText(root, issue.path);
    return field ? `${field} ${issue.message}` : issue.message;
  });
}

/**
 * The JSON Schema of what `schema` accepts, from the schema itself (Standard JSON Schema), without
 * the `$schema` key: a schema embedded in an AsyncAPI or OpenAPI document takes the document's
 * dialect. Throws for a schema library that does not implement the extension.
 */
export function jsonSchemaOf(schema: StandardSchemaV1, target: JsonSchemaTarget = 'draft-07'): Record<string, unknown> {
  const converter = schema['~standard'].jsonSchema;
  if (!converter) throw new TypeError(`jsonSchemaOf: a ${schema['~standard'].vendor} schema does not implement Standard JSON Schema`);
  const { $schema: _, ...rest } = converter.input({ target });
  return rest;
}
