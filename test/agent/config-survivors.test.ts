import { describe, expect, it } from 'vitest';
import { configDirs, errorOf } from '../support/config-dirs.js';
import { takeConfigNotes } from '../../src/agent/config-compat.js';
import { globalConfigPath, readConfigFile, resolveAskSettings } from '../../src/agent/config.js';

/**
 * The config cases the mutation run left standing (stryker.equivalent-mutants.md, agent/config.ts):
 * the whole model name is checked, a YAML error keeps its first line, every refusal is listed, a colony
 * layer with no `colonies` in one file, and the notes an inferred model name leaves (and no others).
 */
const { dirs, globalFile, projectFile } = configDirs();
const env = () => ({ CORAL_HOME: dirs.home });
const resolve = (extra: Parameters<typeof resolveAskSettings>[0] = {}) => resolveAskSettings({ env: env(), cwd: dirs.project, ...extra });

// First in the file: the notes are remembered per process, and a recorded `undefined` would be seen once only.
it('a full model name from the environment leaves no note', () => {
  takeConfigNotes();
  expect(resolve({ env: { ...env(), CORAL_ASK_MODEL: 'google:gemini-2.5-flash' } }).model).toBe('google:gemini-2.5-flash');
  expect(takeConfigNotes()).toEqual([]);
});

it('a bare model name from the environment is noted under the variable it came from', () => {
  takeConfigNotes();
  expect(resolve({ env: { ...env(), CORAL_ASK_MODEL: 'gemini-survivor-test' } }).model).toBe('google:gemini-survivor-test');
  expect(takeConfigNotes()).toEqual(['CORAL_ASK_MODEL "gemini-survivor-test" is taken as google:gemini-survivor-test (write provider:model to choose another provider).']);
});

describe('model names are checked whole', () => {
  it('a provider inside a longer word is not a provider', () => {
    globalFile('ai:\n  ask:\n    default_model: "xgoogle:flash"\n');
    expect(errorOf(() => readConfigFile(globalConfigPath(env()), 'user')).message).toMatch(/has invalid settings:\n {2}ai\.ask\.default_model: a model is provider:model/);
  });

  it('a name running onto a second line is not a model name', () => {
    globalFile('ai:\n  ask:\n    default_model: "google:flash\\nrm -rf"\n');
    expect(errorOf(() => readConfigFile(globalConfigPath(env()), 'user')).message).toMatch(/ai\.ask\.default_model: a model is provider:model/);
  });
});

it('a YAML error is reported by its first line only', () => {
  globalFile('ai:\n  ask: [unclosed\n    default_model: x\n');
  const { message } = errorOf(() => readConfigFile(globalConfigPath(env()), 'user'));
  expect(message.startsWith(`${globalConfigPath(env())} is not valid YAML: `)).toBe(true);
  expect(message).not.toContain('\n');
  expect(message.length).toBeGreaterThan(`${globalConfigPath(env())} is not valid YAML: `.length);
});

it('lists every RFD 030 refusal, one per line', () => {
  globalFile('version: 2\nai:\n  ask:\n    agent:\n      mode: daemon\n');
  expect(errorOf(() => readConfigFile(globalConfigPath(env()), 'user')).message).toBe(`${globalConfigPath(env())} has settings from Coral's RFD 030 that cannot be used here:\n`
    + '  version: "2" is not a config version coral reads (only "1"). Remove the key.\n'
    + '  ai.ask.agent.mode: "daemon" is not available: coral runs the agent in its own process (embedded). Remove the key.');
});

describe('the colony layer', () => {
  it('comes from the project file when the user\'s file has no colonies', () => {
    globalFile('ai:\n  ask:\n    max_tool_rounds: 3\n');
    projectFile('colonies:\n  prod:\n    ask:\n      max_tool_rounds: 5\n');
    expect(resolve({ colonyId: 'prod' }).maxToolRounds).toBe(5);
  });

  it('is empty when neither file has colonies', () => {
    globalFile('ai:\n  ask:\n    max_tool_rounds: 3\n');
    projectFile('ai:\n  ask:\n    conversation: { max_turns: 4 }\n');
    expect(resolve({ colonyId: 'prod' })).toMatchObject({ maxToolRounds: 3, maxTurns: 4 });
  });
});
