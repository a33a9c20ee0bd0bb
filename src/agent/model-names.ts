/**
 * Bare model names, as RFD 030 and most people write them (`gemini-1.5-pro`, `gpt-4o`,
 * `claude-sonnet-4-6`, `llama3.2`), taken as provider:model with a note saying which provider was
 * chosen. A name already written provider:model is kept as it is.
 */
const PROVIDERS = ['google', 'openai', 'anthropic', 'ollama', 'replay', 'triage'];

const FAMILIES: [RegExp, string][] = [
  [/^(gemini|learnlm)-/i, 'google'],
  [/^(gpt-|chatgpt-|o[1-9](-|$)|text-embedding-|davinci|babbage)/i, 'openai'],
  [/^claude-/i, 'anthropic'],
  [/^(llama|codellama|qwen|mistral|mixtral|gemma|phi|deepseek|granite|command-r|starcoder|tinyllama|smollm|nemotron)/i, 'ollama'],
];

/** The provider a bare name belongs to, or null when it is not a well-known family. */
export function providerForBareName(name: string): string | null {
  for (const [re, provider] of FAMILIES) if (re.test(name)) return provider;
  return null;
}

export interface InferredModel {
  model: string;
  /** Set when the provider was inferred: what was chosen, for the user. */
  note?: string;
}

/**
 * `name` as provider:model. A bare name gets its provider from its family, else from
 * `defaultProvider` (RFD 030's `ai.provider`); an unknown bare name is returned unchanged, for
 * the validator to refuse with the accepted forms.
 */
export function inferModelName(name: string, where: string, defaultProvider?: string): InferredModel {
  const colon = name.indexOf(':');
  if (colon > 0 && PROVIDERS.includes(name.slice(0, colon))) return { model: name };
  const provider = providerForBareName(name) ?? (defaultProvider && PROVIDERS.includes(defaultProvider) ? defaultProvider : null);
  if (!provider) return { model: name };
  const model = `${provider}:${name}`;
  return { model, note: `${where} "${name}" is taken as ${model} (write provider:model to choose another provider).` };
}
