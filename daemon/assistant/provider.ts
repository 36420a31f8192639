// The inference provider the daemon was started with (--ai): `none` (no provider: only the
// registry-grounded surfaces answer), `registry` (the built-in provider: every surface from the
// registries and fixed factual templates, no model). `openai:<base_url>` is parsed by the contract
// but not built yet (docs/assistant.md, "Not done yet"): it phrases narrations like `registry`.
import type { AiProvider } from '../contract/schemas/assistant.js';
import type { OrderFacts } from './grounding.js';
import { narrateOrder } from './render.js';

export interface Provider {
  name: AiProvider;
  /** The narration of an order that was not rejected, in both languages. */
  narrate(facts: OrderFacts): ReturnType<typeof narrateOrder>;
}

export function createProvider(name: AiProvider): Provider {
  return { name, narrate: narrateOrder };
}
