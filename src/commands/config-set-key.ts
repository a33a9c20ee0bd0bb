import { CoralError } from '../core/errors.js';
import { KEYRING_SERVICE, type SecretStore, systemKeyring } from '../agent/keyring.js';

const PROVIDERS = ['google', 'openai', 'anthropic', 'honeycomb'];

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
export async function configSetKey(provider: string, o: { store?: SecretStore; read?: (prompt: string) => Promise<string> } = {}): Promise<void> {
  if (!PROVIDERS.includes(provider)) throw new CoralError(`Unknown provider "${provider}".`, `Use one of: ${PROVIDERS.join(', ')}.`);
  const store = o.store ?? systemKeyring();
  const key = await (o.read ?? readSecret)(`API key for ${provider} (not echoed): `);
  if (!key) throw new CoralError('No key given: nothing was stored.', `Type or pipe the key: coral config set-key ${provider} < file`);
  store.set(KEYRING_SERVICE, provider, key);
  const ref = `keyring://${KEYRING_SERVICE}/${provider}`;
  const where = provider === 'honeycomb' ? 'honeycomb.api_key' : `ai.ask.api_keys.${provider}`;
  process.stdout.write(`Stored in the system keyring as ${ref}.\nRefer to it in ~/.coral/config.yaml:  ${where}: ${ref}\n`);
}
