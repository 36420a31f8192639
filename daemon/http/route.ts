// The route vocabulary lives in daemon/contract/route.ts, below the capabilities that declare routes.
// This re-export keeps the route files that still import it from here compiling; import from
// ../contract/route.js instead (docs/architecture.md, "Layers").
export { defineRoute, isMutating } from '../contract/route.js';
export type { AuthMode, Operator, OperatorRealm, Reply, RouteCtx, RouteDef } from '../contract/route.js';
