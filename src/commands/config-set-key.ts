import { CoralError } from '../core/errors.js';
import { KEYRING_SERVICE, type SecretStore, systemKeyring } from '../agent/keyring.js';

const PROVIDERS = ['google', 'openai', 'anthropic', 'honeycomb'];
/**
 * RFD 030's key names, and "gemini", name a provider too. The key is stored under the name given, so
 * a config's keyring://coral/openai_api_key (whose hint says `coral config set-key openai_api_key`)
 * finds it.
 */
const ALIASES: Record<string, string> = {
  gemini: 'google', google_api_key: 'google', gemini_api_key: 'google', openai_api_key: 'openai', anthropic_api_key: 'anthropic', honeycomb_api_key: 'honeycomb',
};
const providerOf = (name: string): string | undefined => (PROVIDERS.includes(name) ? name : ALIASES[name]);

/** Reads one line without echoing it on a terminal; from a pipe, the first line. */
async function readSecret(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0].trim();
  }
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const onData = (d: Buffer) => {
      for (const ch of d.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(() => resolve(value.trim()));
        if (ch === '\u0003') return done(() => reject(new CoralError('Cancelled: nothing was stored.')));
        value = ch === '\u007f' ? value.slice(0, -1) : value + ch;
      }
    };
    const done = (then: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      then();
    };
    stdin.on('data', onData);
  });
}

/** `coral config set-key PROVIDER`: stores the API key in the system keyring, and says how to refer to it. */
export async function configSetKey(name: string, o: { store?: SecretStore; read?: (prompt: string) => Promise<string> } = {}): Promise<void> {
  const provider = providerOf(name);
  if (!provider) throw new CoralError(`Unknown provider "${name}".`, `Use one of: ${PROVIDERS.join(', ')} (or ${Object.keys(ALIASES).join(', ')}).`);
  const store = o.store ?? systemKeyring();
  const key = await (o.read ?? readSecret)(`API key for ${provider} (not echoed): `);
  if (!key) throw new CoralError('No key given: nothing was stored.', `Type or pipe the key: coral config set-key ${name} < file`);
  store.set(KEYRING_SERVICE, name, key);
  const ref = `keyring://${KEYRING_SERVICE}/${name}`;
  const where = provider === 'honeycomb' ? 'honeycomb.api_key' : `ai.ask.api_keys.${provider}`;
  process.stdout.write(`Stored in the system keyring as ${ref}.\nRefer to it in ~/.coral/config.yaml:  ${where}: ${ref}\n`);
}
