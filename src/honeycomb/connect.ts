import { CoralError } from '../core/errors.js';
import { EU_API, HoneycombClient, US_API } from './api.js';

export interface HoneycombConnectOptions {
  /** Use the bundled fake environment even when a key is set. */
  demo?: boolean;
  /** Which fake environment: demo (default) or large. */
  fakeEnvironment?: 'demo' | 'large' | 'wide';
  apiKey?: string;
  apiUrl?: string;
  region?: string;
  cacheTtlMs?: number;
}

export interface HoneycombConnection {
  client: HoneycombClient;
  /** Where the answers come from, in words, for the user. */
  describe: string;
  fake: boolean;
  close(): Promise<void>;
}

const FAKE_KEY = 'coral-demo-key';

/**
 * The real Honeycomb API when a key is available (HONEYCOMB_API_KEY), else the bundled fake
 * environment served locally, saying which.
 */
export async function connectHoneycomb(o: HoneycombConnectOptions = {}): Promise<HoneycombConnection> {
  const apiKey = o.apiKey || process.env.HONEYCOMB_API_KEY;
  if (!o.demo && apiKey) {
    let baseUrl = o.apiUrl;
    if (!baseUrl && o.region) {
      if (!['us', 'eu'].includes(o.region)) throw new CoralError(`Unknown Honeycomb region "${o.region}".`, 'Use us or eu, or --api-url URL.');
      baseUrl = o.region === 'eu' ? EU_API : US_API;
    }
    const client = new HoneycombClient({ apiKey, baseUrl, cacheTtlMs: o.cacheTtlMs });
    return { client, describe: `Honeycomb API at ${client.baseUrl}`, fake: false, close: async () => undefined };
  }
  const { startFakeHoneycomb } = await import('./fake/server.js');
  const { fakeEnvironment } = await import('./fake/environments.js');
  const name = o.fakeEnvironment ?? 'demo';
  const fake = await startFakeHoneycomb({ env: fakeEnvironment(name), apiKey: FAKE_KEY });
  const client = new HoneycombClient({ apiKey: FAKE_KEY, baseUrl: fake.url, cacheTtlMs: o.cacheTtlMs });
  const why = o.demo ? '--demo' : 'no HONEYCOMB_API_KEY set';
  return { client, describe: `the bundled fake Honeycomb environment "${name}" (${why})`, fake: true, close: () => fake.close() };
}
