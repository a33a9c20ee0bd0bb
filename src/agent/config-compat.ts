import { inferModelName } from './model-names.js';

/**
 * Config files written for Coral's RFD 030 (`ai.provider`, `ai.api_key_source`,
 * `ai.ask.google_api_key`, `default_colony`, `ai.ask.agent.mode`, bare model names): each key
 * is mapped onto the one that replaces it, with a note saying so, or refused with the
 * replacement spelled out. Pure: it returns the rewritten config, its notes and its refusals.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Migrated {
  config: unknown;
  notes: string[];
  /** Keys that cannot be mapped, each with what to write instead. */
  refused: string[];
}

const KEY_PROVIDERS: Record<string, string> = { google_api_key: 'google', gemini_api_key: 'google', openai_api_key: 'openai', anthropic_api_key: 'anthropic' };

function migrateAsk(ask: Json, at: string, provider: string | undefined, notes: string[], refused: string[]): Json {
  const out: Json = { ...ask };
  for (const [k, p] of Object.entries(KEY_PROVIDERS)) {
    if (!(k in out)) continue;
    const apiKeys = isObject(out.api_keys) ? { ...out.api_keys } : {};
    if (apiKeys[p] === undefined) apiKeys[p] = out[k];
    out.api_keys = apiKeys;
    delete out[k];
    notes.push(`${at}.${k} is read as ${at}.api_keys.${p}; write it there.`);
  }
  if (isObject(out.agent)) {
    const { mode, ...rest } = out.agent;
    if (mode === 'embedded' || mode === 'ephemeral' || mode === undefined) {
      if (mode !== undefined) notes.push(`${at}.agent.mode: "${String(mode)}" is how coral always runs the agent (in the coral process); the key can go.`);
    } else {
      refused.push(`${at}.agent.mode: "${String(mode)}" is not available: coral runs the agent in its own process (embedded). Remove the key.`);
    }
    if (Object.keys(rest).length > 0) refused.push(`${at}.agent.${Object.keys(rest)[0]}: unknown. Remove ${at}.agent.`);
    delete out.agent;
  }
  if (typeof out.default_model === 'string') {
    const m = inferModelName(out.default_model, `${at}.default_model`, provider);
    if (m.note) notes.push(m.note);
    out.default_model = m.model;
  }
  if (Array.isArray(out.fallback_models)) {
    out.fallback_models = out.fallback_models.map((f, i) => {
      if (typeof f !== 'string') return f;
      const m = inferModelName(f, `${at}.fallback_models[${i}]`, provider);
      if (m.note) notes.push(m.note);
      return m.model;
    });
  }
  return out;
}

export function migrateConfig(raw: unknown): Migrated {
  const notes: string[] = [];
  const refused: string[] = [];
  if (!isObject(raw)) return { config: raw, notes, refused };
  const out: Json = { ...raw };
  if ('version' in out) {
    if (String(out.version) !== '1') refused.push(`version: "${String(out.version)}" is not a config version coral reads (only "1"). Remove the key.`);
    delete out.version;
  }
  for (const k of ['default_colony', 'discovery']) {
    if (!(k in out)) continue;
    notes.push(`${k} is a setting of Coral's colony discovery, not used here: coral ask and the console take the colony from --colony URL, --db FILE or --demo SCENARIO (a conversation continued with --continue keeps its own).`);
    delete out[k];
  }
  let provider: string | undefined;
  if (isObject(out.ai)) {
    const ai: Json = { ...out.ai };
    if ('provider' in ai) {
      provider = String(ai.provider);
      notes.push(`ai.provider: "${provider}" is used for bare model names; models are written provider:model (ai.ask.default_model: ${provider}:MODEL).`);
      delete ai.provider;
    }
    if ('api_key_source' in ai) {
      if (ai.api_key_source === 'env') notes.push('ai.api_key_source: "env" is the default: each key is a reference, ai.ask.api_keys.<provider>: env://VARIABLE.');
      else if (ai.api_key_source === 'keyring') notes.push('ai.api_key_source: "keyring": write each key as ai.ask.api_keys.<provider>: keyring://coral/<provider> (coral config set-key stores it).');
      else refused.push(`ai.api_key_source: "${String(ai.api_key_source)}" is not a key source. Keys are references: ai.ask.api_keys.<provider>: env://VARIABLE or keyring://coral/<provider>.`);
      delete ai.api_key_source;
    }
    if (isObject(ai.ask)) ai.ask = migrateAsk(ai.ask, 'ai.ask', provider, notes, refused);
    out.ai = ai;
  }
  if (isObject(out.colonies)) {
    out.colonies = Object.fromEntries(Object.entries(out.colonies).map(([id, c]) => [id, isObject(c) && isObject(c.ask) ? { ...c, ask: migrateAsk(c.ask, `colonies.${id}.ask`, provider, notes, refused) } : c]));
  }
  return { config: out, notes, refused };
}

/** Notes from the config files read so far, each once, for the command to show. */
const seen = new Set<string>();
const pending: string[] = [];

export function recordNotes(notes: string[]): void {
  for (const n of notes) {
    if (seen.has(n)) continue;
    seen.add(n);
    pending.push(n);
  }
}

export function takeConfigNotes(): string[] {
  return pending.splice(0);
}
