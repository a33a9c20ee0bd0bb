import { describe, expect, it } from 'vitest';
import { colonyMcpUrl } from '../../src/agent/mcp-http.js';

describe('colonyMcpUrl', () => {
  it('adds /mcp to a base URL and keeps one that has it', () => {
    expect(colonyMcpUrl('http://127.0.0.1:4318').href).toBe('http://127.0.0.1:4318/mcp');
    expect(colonyMcpUrl('http://127.0.0.1:4318/').href).toBe('http://127.0.0.1:4318/mcp');
    expect(colonyMcpUrl('http://127.0.0.1:4318/mcp/').href).toBe('http://127.0.0.1:4318/mcp');
  });

  it('says what a colony URL looks like when given something else', () => {
    expect(() => colonyMcpUrl('127.0.0.1 port 4318')).toThrow(/Invalid --colony "127\.0\.0\.1 port 4318"/);
  });
});
