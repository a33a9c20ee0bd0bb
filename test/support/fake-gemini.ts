/**
 * A strict fake of the Gemini API (generativelanguage.googleapis.com/v1beta), as documented:
 * - every content has a role and at least one part; every part holds data;
 * - Gemini 3 "function calling: thought signatures": every model content with function calls in
 *   the current turn (since the last user text) must return the signature on its first
 *   functionCall part; missing, or not one this server issued (nor the documented dummy
 *   for calls from other models), is a 400;
 * - each model content with function calls is followed by a user content answering each call, in
 *   order, by name (and id when the call had one);
 * - function declarations' parametersJsonSchema may only use the documented JSON Schema subset.
 * It emits a thought signature on the first functionCall part of each response, leaves call ids
 * out unless scripted (as the API does), SAFETY blocks, and 429s with RetryInfo.
 */
import { randomBytes } from 'node:crypto';
import { type FakeLlm, type Rejection, type ScriptedTurn, pause, startFake } from './fake-llm.js';

const DUMMY = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);
const SCHEMA_KEYWORDS = new Set(['$id', '$defs', '$ref', '$anchor', 'type', 'format', 'title', 'description', 'enum', 'items', 'prefixItems', 'minItems', 'maxItems', 'minimum', 'maximum', 'anyOf', 'oneOf', 'properties', 'additionalProperties', 'required', 'propertyOrdering']);

type Part = { text?: string; functionCall?: { id?: string; name: string }; functionResponse?: { id?: string; name: string }; thoughtSignature?: string; thought?: boolean };
type Content = { role?: string; parts?: Part[] };

function schemaProblem(s: unknown, path: string): string | null {
  if (typeof s !== 'object' || s === null) return null;
  if (Array.isArray(s)) {
    for (const [i, x] of s.entries()) {
      const p = schemaProblem(x, `${path}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(s)) {
    if (!SCHEMA_KEYWORDS.has(k)) return `Invalid JSON payload received. Unknown name "${k}" at '${path}': Cannot find field.`;
    if ((k === 'minimum' || k === 'maximum') && typeof v === 'number' && Math.abs(v) >= Number.MAX_SAFE_INTEGER) return `${path}.${k}: value out of range`;
    const children = k === 'properties' || k === '$defs' ? Object.values(v as object) : k === 'enum' || k === 'required' || k === 'propertyOrdering' ? [] : [v];
    for (const c of children) {
      const p = schemaProblem(c, `${path}.${k}`);
      if (p) return p;
    }
  }
  return null;
}

export function fakeGemini(script: ScriptedTurn[]): Promise<FakeLlm> {
  const issued = new Set<string>();
  const validate = (b: Record<string, unknown>): Rejection | null => {
    const bad = (message: string): Rejection => ({ status: 400, message });
    const contents = (b.contents ?? []) as Content[];
    if (contents.length === 0) return bad('* GenerateContentRequest.contents: contents is not specified');
    for (const [i, c] of contents.entries()) {
      if (c.role !== 'user' && c.role !== 'model') return bad(`Please use a valid role: user, model. (content ${i})`);
      if (!c.parts || c.parts.length === 0) return bad(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
      for (const p of c.parts) if (p.text === undefined && !p.functionCall && !p.functionResponse) return bad(`* GenerateContentRequest.contents[${i}].parts: part must have one initialized field (data).`);
    }
    let turnStart = 0;
    contents.forEach((c, i) => {
      if (c.role === 'user' && c.parts?.some((p) => p.text !== undefined)) turnStart = i;
    });
    for (const [i, c] of contents.entries()) {
      const calls = (c.parts ?? []).filter((p) => p.functionCall);
      if (c.role !== 'model' || calls.length === 0) continue;
      const sig = calls[0].thoughtSignature;
      if (i > turnStart && (!sig || !(issued.has(sig) || DUMMY.has(sig)))) {
        return bad(`Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`${calls[0].functionCall?.name}\` , position ${i + 1}.`);
      }
      const answer = contents[i + 1]?.parts?.filter((p) => p.functionResponse) ?? [];
      const pairs = calls.map((p, j) => [p.functionCall, answer[j]?.functionResponse] as const);
      if (answer.length !== calls.length || pairs.some(([call, resp]) => !resp || resp.name !== call?.name || (call?.id !== undefined && resp.id !== call.id))) {
        return bad('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
      }
    }
    for (const t of (b.tools ?? []) as { functionDeclarations?: { name: string; parametersJsonSchema?: unknown }[] }[]) {
      for (const d of t.functionDeclarations ?? []) {
        const p = schemaProblem(d.parametersJsonSchema, `tools[0].function_declarations[${d.name}].parameters_json_schema`);
        if (p) return bad(p);
      }
    }
    return null;
  };
  return startFake(script, {
    validate,
    errorBody: (status, message) => ({ error: { code: status, message, status: status === 400 ? 'INVALID_ARGUMENT' : status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } }),
    write: async (res, turn, sse) => {
      const chunks: Record<string, unknown>[] = (turn.text ?? []).map((t) => ({ candidates: [{ content: { role: 'model', parts: [{ text: t }] }, index: 0 }] }));
      if (turn.toolCalls?.length) {
        const signature = randomBytes(12).toString('base64');
        issued.add(signature);
        chunks.push({ candidates: [{ content: { role: 'model', parts: turn.toolCalls.map((c, i) => ({ functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: c.args }, ...(i === 0 ? { thoughtSignature: signature } : {}) })) }, index: 0 }] });
      }
      const finish = turn.finish ?? 'STOP';
      chunks.push({ candidates: [{ ...(finish === 'STOP' ? { content: { role: 'model', parts: [{ text: '' }] } } : {}), finishReason: finish, index: 0 }], usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 } });
      if (!sse) {
        res.write(JSON.stringify(chunks[0]));
        return;
      }
      for (const c of chunks) {
        res.write(`data: ${JSON.stringify(c)}\r\n\r\n`);
        await pause(turn.delayMs);
      }
    },
  });
}

/** A 429 as Gemini sends it: RESOURCE_EXHAUSTED with google.rpc.RetryInfo in the body. */
export function geminiQuota(retryDelay: string, headers?: Record<string, string>): ScriptedTurn {
  return {
    status: 429,
    headers,
    errorBody: { error: { code: 429, message: 'You exceeded your current quota, please check your plan and billing details.', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] }, { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] } },
  };
}

/** Gemini's answer to a bad key: 400 INVALID_ARGUMENT with reason API_KEY_INVALID. */
export const GEMINI_BAD_KEY: ScriptedTurn = {
  status: 400,
  errorBody: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }] } },
};
