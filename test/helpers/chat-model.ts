// A scripted OpenAI-compatible chat completions endpoint: a real HTTP server (node:http) that the
// daemon's openai: provider calls. Each order id can have its own script (so several requests can be
// in flight at once), else the default one answers. The script gets the user message the daemon sent
// (parsed JSON) and returns the HTTP status and body, or null to never answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Sent {
  url: string;
  body: { model: string; messages: Array<{ role: string; content: string }>; response_format?: unknown };
}
export type Reply = { status: number; body: string } | null;
export type Script = (user: UserMessage) => Reply;

/** What the daemon sends as the user message: the fact sheet and the templates it offers. */
export interface UserMessage {
  facts: Record<string, unknown> & { order_id: string; state: string };
  templates: { cause: Offered[]; remedy: Offered[] };
}
export interface Offered {
  template: string;
  slots: Record<string, unknown>;
  en: string;
}

export interface ChatModel {
  baseUrl: string;
  received: Sent[];
  /** The script for every order without one of its own. */
  script: Script;
  /** Scripts by order id. */
  byOrder: Map<string, Script>;
  close(): Promise<void>;
}

/** An OpenAI chat completion whose message content is `content`. */
export function chat(content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });
}

export const ok = (content: string): Reply => ({ status: 200, body: chat(content) });

/** Starts the endpoint on 127.0.0.1, over https with this key and certificate when given. */
export async function startChatModel(tls?: { key: string; cert: string }): Promise<ChatModel> {
  const model: ChatModel = { baseUrl: '', received: [], script: () => null, byOrder: new Map(), close: async () => {} };
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Sent['body'];
    model.received.push({ url: req.url ?? '', body });
    const parsed = JSON.parse(body.messages.find((m) => m.role === 'user')?.content ?? '{}') as UserMessage &
      UserMessage['facts'];
    const user: UserMessage = parsed.facts ? parsed : { facts: parsed, templates: { cause: [], remedy: [] } };
    const a = (model.byOrder.get(user.facts.order_id) ?? model.script)(user);
    if (!a) return;
    res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
  }
  const listener = (req: IncomingMessage, res: ServerResponse) => void handle(req, res);
  const server: Server = tls ? createTlsServer(tls, listener) : createServer(listener);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  model.baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  model.close = async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  };
  return model;
}

/** A well-behaved model's choice: the offered templates named, with the slots exactly as offered. */
export function choose(user: UserMessage, cause: string[], remedy: string[]): Record<string, unknown> {
  const pick = (offered: Offered[], ids: string[]) =>
    ids.map((id) => {
      const o = offered.find((x) => x.template === id);
      return { template: id, slots: o ? o.slots : {} };
    });
  return { cause: pick(user.templates.cause, cause), remedy: pick(user.templates.remedy, remedy) };
}

/** The first offered cause and remedy: what a model that follows the instructions answers. */
export function firstChoice(user: UserMessage): Record<string, unknown> {
  return choose(user, [user.templates.cause[0]?.template ?? 'none'], [user.templates.remedy[0]?.template ?? 'none']);
}
