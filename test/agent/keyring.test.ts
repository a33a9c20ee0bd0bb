import { afterAll, describe, expect, it, vi } from 'vitest';
import { KEYRING_SERVICE, type SecretStore, parseKeyringRef, readKeyring, systemKeyring } from '../../src/agent/keyring.js';
import { configSetKey } from '../../src/commands/config-set-key.js';

/** An in-memory keyring with the SecretStore contract, for the logic around the system one. */
function memoryStore(): SecretStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: (s, a) => data.get(`${s}/${a}`) ?? null, set: (s, a, v) => void data.set(`${s}/${a}`, v) };
}

const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
afterAll(() => write.mockRestore());

describe('keyring:// references', () => {
  it('parses service and account; a bare account is in the coral service', () => {
    expect(parseKeyringRef('keyring://coral/openai_api_key')).toEqual({ service: 'coral', account: 'openai_api_key' });
    expect(parseKeyringRef('keyring://openai')).toEqual({ service: 'coral', account: 'openai' });
    expect(() => parseKeyringRef('keyring://')).toThrow(/names no secret/);
  });

  it('coral config set-key stores the key where keyring://coral/<provider> reads it', async () => {
    const store = memoryStore();
    await configSetKey('openai', { store, read: async () => 'sk-test' });
    expect(readKeyring('keyring://coral/openai', store)).toBe('sk-test');
    expect(String(write.mock.calls.at(-1)?.[0])).toMatch(/ai\.ask\.api_keys\.openai: keyring:\/\/coral\/openai/);
    expect(() => readKeyring('keyring://coral/anthropic', store)).toThrow(/No secret at keyring:\/\/coral\/anthropic/);
    await expect(configSetKey('azure', { store, read: async () => 'x' })).rejects.toThrow(/Unknown provider "azure"/);
    await expect(configSetKey('google', { store, read: async () => '' })).rejects.toThrow(/nothing was stored/);
    expect(store.data.has(`${KEYRING_SERVICE}/google`)).toBe(false);
  });

  it("the missing-secret hint's own command works: set-key openai_api_key stores where keyring://coral/openai_api_key reads", async () => {
    const store = memoryStore();
    let hint = '';
    try {
      readKeyring('keyring://coral/openai_api_key', store);
    } catch (err) {
      hint = (err as { hint?: string }).hint ?? '';
    }
    expect(hint).toBe('Store it with: coral config set-key openai_api_key');
    await configSetKey('openai_api_key', { store, read: async () => 'sk-rfd' });
    expect(readKeyring('keyring://coral/openai_api_key', store)).toBe('sk-rfd');
    expect(String(write.mock.calls.at(-1)?.[0])).toMatch(/ai\.ask\.api_keys\.openai: keyring:\/\/coral\/openai_api_key/);
    await configSetKey('gemini', { store, read: async () => 'g' });
    expect(readKeyring('keyring://coral/gemini', store)).toBe('g');
  });

  it('the system keyring answers, or says clearly why it cannot', () => {
    // Machines without a Secret Service (this CI container) get the explanation, never a crash.
    try {
      const s = systemKeyring();
      expect(s.get('coral-test', 'absent-account')).toBeNull();
    } catch (err) {
      expect((err as Error).message).toMatch(/The system keyring cannot be reached \(.+\)\./);
      expect((err as { hint?: string }).hint).toMatch(/Secret Service .* env:\/\/VARIABLE/);
    }
  });
});
