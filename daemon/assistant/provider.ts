// The inference provider the daemon runs with (--ai, or the last reset's `ai`): `none` (no provider:
// only the registry-grounded surfaces answer), `registry` (every surface from the registries and fixed
// factual templates, no model) or `openai:<base_url>` (an OpenAI-compatible chat endpoint chooses
// among the narration templates of an order that was not rejected; openai.ts). Either way the words
// are the service's own (narration.ts). Everything else is the registry's with every provider. A
// narration is null when the provider could not give one the assistant accepts: the service then
// answers the neutral refusal.
import type { AiProvider } from '../contract/schemas/assistant.js';
import type { OrderFacts } from './grounding.js';
import { phraseWithChat } from './openai.js';
import { narrateOrder, type Narration } from './narration.js';

export interface Provider {
  name: AiProvider;
  /** The narration of an order that was not rejected, in both languages; null: fall back to the neutral refusal. */
  narrate(facts: OrderFacts): Promise<Narration | null>;
}

export interface ProviderOptions {
  /** Bound on one call to an openai: endpoint. */
  timeoutMs: number;
  /** The model name an openai: endpoint is asked for. */
  model: string;
}

export function createProvider(name: AiProvider, o: ProviderOptions): Provider {
  if (name.startsWith('openai:')) {
    const endpoint = { baseUrl: name.slice('openai:'.length), model: o.model, timeoutMs: o.timeoutMs };
    return { name, narrate: (f) => phraseWithChat(endpoint, f) };
  }
  return { name, narrate: async (f) => narrateOrder(f) };
}
