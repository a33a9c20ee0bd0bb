/**
 * Tool schemas as each API accepts them. Tools come from MCP servers (ours, built with zod, and the
 * user's own), whose JSON Schemas say draft-07 and may use any keyword.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The keywords Gemini's `parametersJsonSchema` accepts. Google documents a subset of JSON Schema:
 * "$id, $defs, $ref, $anchor, type, format, title, description, enum (for strings and numbers),
 * items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf (interpreted as anyOf),
 * properties, additionalProperties, required" and the non-standard propertyOrdering
 * (ai.google.dev/api/caching#FunctionDeclaration); any other key fails the request with 400.
 */
export const GEMINI_SCHEMA_KEYWORDS = new Set([
  '$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems',
  'minItems', 'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering',
]);

/** Keywords whose value maps names to schemas (the names are data, not keywords). */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMA_VALUES = new Set(['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'not', 'additionalProperties', 'contains', 'if', 'then', 'else']);

function mapSchemas(v: unknown, f: (s: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map(f);
  return isObject(v) ? f(v) : v;
}

/**
 * A schema Gemini accepts: unsupported keywords dropped (their meaning, where it matters, moved to
 * the description), `const` as a one-value enum, draft-07 `definitions` as `$defs`, and zod's
 * +/-2^53 integer bounds removed (Gemini rejects them as out of range).
 */
export function geminiSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  const notes: string[] = [];
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'definitions' || k === '$defs') {
      out.$defs = Object.fromEntries(Object.entries(isObject(v) ? v : {}).map(([n, s]) => [n, geminiSchema(s)]));
    } else if (k === 'properties') {
      out.properties = Object.fromEntries(Object.entries(isObject(v) ? v : {}).map(([n, s]) => [n, geminiSchema(s)]));
    } else if (k === '$ref' && typeof v === 'string') {
      out.$ref = v.replace('#/definitions/', '#/$defs/');
    } else if (k === 'const') {
      out.enum = [v];
    } else if ((k === 'minimum' || k === 'maximum') && typeof v === 'number' && Math.abs(v) >= Number.MAX_SAFE_INTEGER) {
      continue;
    } else if (k === 'enum' && Array.isArray(v)) {
      // Enums of strings and numbers only.
      const kept = v.filter((e) => typeof e === 'string' || typeof e === 'number');
      if (kept.length > 0) out.enum = kept;
    } else if (GEMINI_SCHEMA_KEYWORDS.has(k)) {
      out[k] = SCHEMA_VALUES.has(k) ? mapSchemas(v, geminiSchema) : v;
    } else if (k === 'pattern' || k === 'minLength' || k === 'maxLength' || k === 'default' || k === 'exclusiveMinimum' || k === 'exclusiveMaximum') {
      notes.push(`${k}: ${JSON.stringify(v)}`);
    }
  }
  if (notes.length > 0) out.description = [out.description, `(${notes.join('; ')})`].filter(Boolean).join(' ');
  return out;
}

/**
 * A schema in JSON Schema draft 2020-12, the dialect Anthropic documents for `input_schema`:
 * `$schema` dropped, draft-07 `definitions` as `$defs`, tuple `items: [...]` as `prefixItems`.
 */
export function draft2020Schema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$schema') continue;
    if (k === 'definitions' || k === '$defs') out.$defs = Object.fromEntries(Object.entries(isObject(v) ? v : {}).map(([n, s]) => [n, draft2020Schema(s)]));
    else if (k === '$ref' && typeof v === 'string') out.$ref = v.replace('#/definitions/', '#/$defs/');
    else if (k === 'items' && Array.isArray(v)) out.prefixItems = v.map(draft2020Schema);
    else if (SCHEMA_MAPS.has(k) && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, draft2020Schema(s)]));
    else if (SCHEMA_VALUES.has(k)) out[k] = mapSchemas(v, draft2020Schema);
    else out[k] = v;
  }
  return out;
}
