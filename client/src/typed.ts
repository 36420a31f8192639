// Types of a route, read from the types openapi-typescript generates from /openapi.json
// (./generated/api.ts): the path parameters in the order of the path, the body or query, the answer.
import type { paths } from './generated/api.js';
import type { CallOptions } from './http.js';
import type { Exact } from './json.js';

export type Paths = paths;
export type Verb = 'get' | 'put' | 'post' | 'delete' | 'patch';
/** The operation of a path and verb (never when the path has no such verb). */
export type Op<P extends keyof paths, M extends Verb> = NonNullable<paths[P][M]>;
/** The routes of a realm's prefix, e.g. PathsUnder<'/v1/'>. */
export type PathsUnder<Prefix extends string> = Extract<keyof paths, `${Prefix}${string}`>;
/** The verbs a path has. */
export type VerbsOf<P extends keyof paths> = { [M in Verb]: [Op<P, M>] extends [never] ? never : M }[Verb];

type PathParams<O> = O extends { parameters: { path?: infer P } } ? NonNullable<P> : never;
type ParamType<O, N> = N extends keyof PathParams<O> ? PathParams<O>[N] : string;
/** The path parameters as positional arguments, in the order they appear in the path. */
export type PathArgs<P extends string, O> = P extends `${string}{${infer N}}${infer R}`
  ? [ParamType<O, N>, ...PathArgs<R, O>]
  : [];

type Content<C> = 'application/json' extends keyof C ? C['application/json'] : Uint8Array;
type RequestBody<O> = O extends { requestBody?: infer B } ? NonNullable<B> : never;
/** The request body: the JSON type, or bytes for an upload. */
export type BodyOf<O> = [RequestBody<O>] extends [never]
  ? never
  : RequestBody<O> extends { content: infer C }
    ? Content<C>
    : never;
/** The query parameters. */
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type QueryRequired<O> = O extends { parameters: { query: object } } ? true : false;

type Responses<O> = O extends { responses: infer R } ? R : never;
type Success<R> = R[Extract<keyof R, 200 | 201 | 202 | 204>];
type Decoded<X> = [X] extends [never] ? never : X extends { content: infer C } ? Content<C> : undefined;
/** The answer of a 2xx: the JSON type (big-integer fields as bigint), or bytes for a file. */
export type OkOf<O> = Exact<Decoded<Success<Responses<O>>>>;

/** The arguments after the path parameters: the body or the query (when the route has one), then options. */
type Rest<O> = [BodyOf<O>] extends [never]
  ? [QueryOf<O>] extends [never]
    ? [options?: CallOptions]
    : QueryRequired<O> extends true
      ? [query: QueryOf<O>, options?: CallOptions]
      : [query?: QueryOf<O>, options?: CallOptions]
  : [body: BodyOf<O>, options?: CallOptions];

/** A resource method: `client.orders.cancel(orderId, options?)`, `client.orders.create(body, options?)`. */
export type MethodOf<P extends keyof paths & string, M extends Verb> = (
  ...args: [...PathArgs<P, Op<P, M>>, ...Rest<Op<P, M>>]
) => Promise<OkOf<Op<P, M>>>;

/** The input of the generic request(): path parameters by name, query, body. */
export type RequestInput<O> = ([PathParams<O>] extends [never] ? { path?: undefined } : { path: PathParams<O> }) &
  ([QueryOf<O>] extends [never] ? { query?: undefined } : { query?: QueryOf<O> }) &
  ([BodyOf<O>] extends [never] ? { body?: undefined } : { body: BodyOf<O> }) &
  CallOptions;
