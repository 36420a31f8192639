// Every tenant route (/v1) as a resource method: [verb, path, what follows the path parameters:
// 'b' a body, 'q' a query, '-' nothing]. test/client/routes.test.ts proves each /v1 route of
// /openapi.json has exactly one entry here, with the right shape.

export const TENANT_ROUTES = {
  market: {
    clock: ['get', '/v1/clock', '-'],
    calendar: ['get', '/v1/calendar', 'q'],
    instruments: ['get', '/v1/instruments', 'q'],
    instrument: ['get', '/v1/instruments/{symbol}', '-'],
    quote: ['get', '/v1/instruments/{symbol}/quote', '-'],
    marketQuote: ['get', '/v1/markets/{market_id}/instruments/{symbol}/quote', '-'],
    ohlcv: ['get', '/v1/markets/{market_id}/instruments/{symbol}/ohlcv', 'q'],
    indexOhlcv: ['get', '/v1/markets/{market_id}/index/EGX30/ohlcv', 'q'],
    bonds: ['get', '/v1/bonds', 'q'],
  },
  news: {
    list: ['get', '/v1/news', 'q'],
    get: ['get', '/v1/news/{id}', '-'],
  },
  kyc: {
    create: ['post', '/v1/kyc/applications', 'b'],
    uploadDocument: ['put', '/v1/kyc/applications/{id}/documents/{side}', 'b'],
    submit: ['post', '/v1/kyc/applications/{id}/submit', '-'],
    get: ['get', '/v1/kyc/applications/{id}', '-'],
  },
  investors: {
    get: ['get', '/v1/investors/{id}', '-'],
    setSuitability: ['put', '/v1/investors/{id}/suitability', 'b'],
    balances: ['get', '/v1/investors/{id}/balances', '-'],
    activities: ['get', '/v1/investors/{id}/activities', 'q'],
  },
  accounts: {
    list: ['get', '/v1/accounts', 'q'],
    get: ['get', '/v1/accounts/{id}', '-'],
  },
  transfers: {
    create: ['post', '/v1/transfers', 'b'],
    list: ['get', '/v1/transfers', 'q'],
    get: ['get', '/v1/transfers/{id}', '-'],
  },
  orders: {
    create: ['post', '/v1/orders', 'b'],
    list: ['get', '/v1/orders', 'q'],
    get: ['get', '/v1/orders/{id}', '-'],
    cancel: ['delete', '/v1/orders/{id}', '-'],
    contractNote: ['get', '/v1/orders/{id}/contract-note', '-'],
  },
  funds: {
    list: ['get', '/v1/funds', 'q'],
    createOrder: ['post', '/v1/fund-orders', 'b'],
    getOrder: ['get', '/v1/fund-orders/{id}', '-'],
  },
  reports: {
    create: ['post', '/v1/reports', 'b'],
    get: ['get', '/v1/reports/{id}', '-'],
    download: ['get', '/v1/reports/{id}/download', '-'],
  },
  portfolio: {
    get: ['get', '/v1/investors/{id}/portfolio', '-'],
    exposures: ['get', '/v1/investors/{id}/portfolio/exposures', '-'],
    performance: ['get', '/v1/investors/{id}/portfolio/performance', 'q'],
    risk: ['get', '/v1/investors/{id}/portfolio/risk', 'q'],
  },
  branding: {
    get: ['get', '/v1/branding', '-'],
    update: ['put', '/v1/branding', 'b'],
    logo: ['get', '/v1/branding/logo', '-'],
    uploadLogo: ['put', '/v1/branding/logo', 'b'],
  },
  ai: {
    explainOrder: ['post', '/v1/ai/explain/order/{id}', '-'],
    glossary: ['get', '/v1/ai/glossary', 'q'],
    term: ['get', '/v1/ai/glossary/{term}', '-'],
    disclosure: ['get', '/v1/ai/disclosure', '-'],
    explainError: ['get', '/v1/ai/dev/explain-error/{code}', '-'],
    lookupError: ['get', '/v1/ai/dev/explain-error', 'q'],
  },
} as const;
