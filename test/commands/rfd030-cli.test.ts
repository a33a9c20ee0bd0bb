import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { canonicalSetting } from '../../src/commands/config-edit.js';
import { coralCli } from '../support/coral-cli.js';

/** RFD 030's own spellings of commands and keys work as written. */
const home = mkdtempSync(join(tmpdir(), 'coral-rfd030-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const coral = coralCli({ CORAL_HOME: home });

describe("RFD 030's commands", () => {
  it('coral colony start is coral colony serve', async () => {
    const r = await coral('colony', 'start', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: coral colony serve\|start /);
    expect(r.stdout).toMatch(/--otlp-port/);
  });

  it('coral config set ask.default_model writes ai.ask.default_model, a bare model name with its provider', async () => {
    const r = await coral('config', 'set', 'ask.default_model', 'gemini-2.5-flash');
    expect(r.code, r.stderr).toBe(0);
    expect(parse(readFileSync(join(home, 'config.yaml'), 'utf8'))).toEqual({ ai: { ask: { default_model: 'google:gemini-2.5-flash' } } });
    expect(r.stderr).toMatch(/ask\.default_model is written as ai\.ask\.default_model/);
  });

  it('maps only the ask settings, and leaves provider:model names alone', () => {
    expect(canonicalSetting('ask.max_tool_rounds', '3')).toEqual({ key: 'ai.ask.max_tool_rounds', value: '3', notes: [expect.stringMatching(/under ai\.ask/)] });
    expect(canonicalSetting('ai.ask.default_model', 'openai:gpt-4o')).toEqual({ key: 'ai.ask.default_model', value: 'openai:gpt-4o', notes: [] });
    expect(canonicalSetting('colony.url', 'http://127.0.0.1:4318').key).toBe('colony.url');
    expect(canonicalSetting('asking.x', 'y').key).toBe('asking.x');
  });
});
