import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { describe, expect, it } from 'vitest';
import { lazyValidator } from '../../src/agent/toolhub.js';

/** Output schemas are compiled when a result is first checked, not when the tools are listed. */
describe('the lazy output-schema validator', () => {
  const schema: JsonSchemaType = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

  it('compiles a schema on its first use only, once', () => {
    let compiled = 0;
    const ajv = new AjvJsonSchemaValidator();
    const counting: jsonSchemaValidator = {
      getValidator: (s) => {
        compiled++;
        return ajv.getValidator(s);
      },
    };
    const v = lazyValidator(counting).getValidator<{ n: number }>(schema);
    expect(compiled).toBe(0);
    v({ n: 1 });
    v({ n: 2 });
    expect(compiled).toBe(1);
  });

  it('answers as the SDK validator does', () => {
    const ours = lazyValidator().getValidator<{ n: number }>(schema);
    const sdk = new AjvJsonSchemaValidator().getValidator<{ n: number }>(schema);
    for (const input of [{ n: 1 }, { n: 'x' }, {}, null]) expect(ours(input)).toEqual(sdk(input));
    expect(ours({ n: 'x' }).valid).toBe(false);
  });
});
