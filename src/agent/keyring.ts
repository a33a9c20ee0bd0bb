import { createRequire } from 'node:module';
import { CoralError } from '../core/errors.js';

/**
 * `keyring://SERVICE/ACCOUNT` secrets in the system keyring: Secret Service on Linux (GNOME
 * Keyring, KeePassXC), Keychain on macOS, Credential Manager on Windows, through @napi-rs/keyring
 * (its binaries arrive as npm optional dependencies; nothing is built or downloaded at install).
 * `keyring://openai` is short for `keyring://coral/openai`, where `coral config set-key` stores.
 */
export const KEYRING_SERVICE = 'coral';

export interface SecretStore {
  /** The secret, or null when none is stored; throws when the keyring itself cannot be reached. */
  get(service: string, account: string): string | null;
  set(service: string, account: string, secret: string): void;
}

export function parseKeyringRef(ref: string): { service: string; account: string } {
  const rest = ref.slice('keyring://'.length).replace(/^\/+|\/+$/g, '');
  const slash = rest.indexOf('/');
  const [service, account] = slash < 0 ? [KEYRING_SERVICE, rest] : [rest.slice(0, slash), rest.slice(slash + 1)];
  if (!service || !account) throw new CoralError(`${ref} names no secret.`, 'Write keyring://coral/<provider>, e.g. keyring://coral/openai (coral config set-key openai stores it there).');
  return { service, account };
}

interface NapiEntry {
  getPassword(): string | null | undefined;
  setPassword(secret: string): void;
}

/** The operating system's keyring. */
export function systemKeyring(): SecretStore {
  let Entry: new (service: string, account: string) => NapiEntry;
  try {
    ({ Entry } = createRequire(import.meta.url)('@napi-rs/keyring') as { Entry: typeof Entry });
  } catch (err) {
    throw unreachable(err);
  }
  return {
    get(service, account) {
      try {
        return new Entry(service, account).getPassword() ?? null;
      } catch (err) {
        if (/no (matching )?entry|not found/i.test((err as Error).message)) return null;
        throw unreachable(err);
      }
    },
    set(service, account, secret) {
      try {
        new Entry(service, account).setPassword(secret);
      } catch (err) {
        throw unreachable(err);
      }
    },
  };
}

function unreachable(err: unknown): CoralError {
  return new CoralError(
    `The system keyring cannot be reached (${(err as Error).message}).`,
    'On Linux it needs a Secret Service (GNOME Keyring or KeePassXC) on the session D-Bus; on macOS the login Keychain. Otherwise use env://VARIABLE, with the key exported in that variable.',
  );
}

/** Resolves a keyring:// reference, or says what is missing and how to store it. */
export function readKeyring(ref: string, store: SecretStore = systemKeyring()): string {
  const { service, account } = parseKeyringRef(ref);
  const secret = store.get(service, account);
  if (!secret) {
    const hint = service === KEYRING_SERVICE ? `Store it with: coral config set-key ${account}` : `Store it in the system keyring under service "${service}", account "${account}".`;
    throw new CoralError(`No secret at ${ref} in the system keyring.`, hint);
  }
  return secret;
}
