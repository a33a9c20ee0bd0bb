import { builtinModules } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };

/**
 * The installed package runs from its bundle: a dependency is only what the bundle loads from
 * node_modules at run time (the native bindings). Everything else, the three model SDKs included,
 * is bundled (a provider's SDK sits in its own chunk, loaded when that provider is chosen).
 */
const OPTIONAL = new Set(['bufferutil', 'utf-8-validate', 'supports-color']); // ws and debug try them and go on without

function bareSpecifiers(): Set<string> {
  const files = ['dist/coral.js', ...readdirSync('dist/chunks').filter((f) => f.endsWith('.js')).map((f) => join('dist/chunks', f))];
  const out = new Set<string>();
  for (const f of files) {
    // Package specifiers only: `from "` also occurs inside the bundled code's own strings.
    for (const m of readFileSync(f, 'utf8').matchAll(/(?:require\(|import\(|\bfrom )"((?:@[\w-][\w.-]*\/)?[\w-][\w.-]*(?:\/[\w./-]+)?)"/g)) {
      const name = m[1].startsWith('@') ? m[1].split('/').slice(0, 2).join('/') : m[1].split('/')[0];
      if (name.startsWith('node:') || builtinModules.includes(name) || OPTIONAL.has(name) || name === 'ajv' || name === 'ajv-formats') continue;
      out.add(name);
    }
  }
  return out;
}

describe('the package manifest', () => {
  it('depends on exactly what the bundle loads from node_modules', () => {
    expect([...bareSpecifiers()].sort()).toEqual(['@duckdb/node-bindings']);
    // @napi-rs/keyring is loaded through createRequire (keyring.ts), so the scan above cannot see it.
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@duckdb/node-bindings', '@napi-rs/keyring']);
  });

  it('installs no model SDK: they are bundled, each provider loading its own chunk when chosen', () => {
    for (const sdk of ['@google/genai', 'openai', '@anthropic-ai/sdk']) {
      expect(Object.keys(pkg.dependencies)).not.toContain(sdk);
      expect(Object.keys(pkg.devDependencies)).toContain(sdk);
    }
    expect(readFileSync('dist/coral.js', 'utf8')).not.toMatch(/GoogleGenAI|anthropic-version/);
  });

  it('ships the bundle and the demo data, not the sources, and no install script', () => {
    expect(pkg.files).toEqual(['dist/', '!dist/**/*.map', 'demo-data/']);
    expect(pkg.scripts.prepack).toMatch(/pack-manifest\.mjs strip/);
    expect(pkg.scripts.postpack).toMatch(/pack-manifest\.mjs restore/);
  });
});
