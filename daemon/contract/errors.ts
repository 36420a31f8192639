// The one registry of error codes. Every error the API returns names a code from here; the same
// entries feed docs/errors.md and the assistant's error explainer. Codes are stable: never rename one.

export interface ErrorEntry {
  status: number;
  /** Default message when the thrower gives none. */
  message: string;
  /** Neutral cause, for people and for /v1/ai/dev/explain-error. */
  cause: string;
  /** What the caller can do about it. */
  remedy: string;
}

function e(status: number, message: string, cause: string, remedy: string): ErrorEntry {
  return { status, message, cause, remedy };
}

export const ERROR_CODES = {
  // Transport and request shape
  BAD_REQUEST: e(
    400,
    'The request is not valid HTTP.',
    'The HTTP parser refused the request: conflicting Content-Length headers, Content-Length with ' +
      'Transfer-Encoding, a bad chunk, or a malformed request line.',
    'Send a well-formed HTTP/1.1 request; most HTTP clients do this for you.',
  ),
  HEADERS_TOO_LARGE: e(
    431,
    'The request headers are too large.',
    'The request line and headers exceed the server limit (16 KiB).',
    'Send fewer or shorter headers.',
  ),
  MALFORMED_JSON: e(
    400,
    'The request body is not valid JSON.',
    'The body could not be parsed as JSON.',
    'Send a well-formed JSON document with Content-Type: application/json.',
  ),
  VALIDATION_FAILED: e(
    422,
    'The request failed validation.',
    'A field is missing, has the wrong type, or is out of range.',
    'Read the field path in the message and correct that field.',
  ),
  UNSUPPORTED_CONTENT_TYPE: e(
    415,
    'The Content-Type of the request is not accepted by this route.',
    'The route accepts a different media type.',
    'Send application/json, or the raw image type the route documents.',
  ),
  UNSUPPORTED_MEDIA_TYPE: e(
    415,
    'The upload is not a JPEG or PNG image.',
    'The uploaded bytes do not start with a JPEG or PNG signature.',
    'Upload the raw bytes of a JPEG or PNG file.',
  ),
  PAYLOAD_TOO_LARGE: e(
    413,
    'The request body is larger than the route allows.',
    'The body exceeds the size limit (512 KiB for images).',
    'Send a smaller file.',
  ),
  NOT_FOUND: e(
    404,
    'No such resource.',
    'The id is unknown, or belongs to another tenant.',
    'Check the id; ids are scoped to the tenant that created them.',
  ),
  ROUTE_NOT_FOUND: e(
    404,
    'No route matches this method and path.',
    'The method and path do not name an endpoint of the API.',
    'Check the path against /openapi.json.',
  ),
  NON_CANONICAL_PATH: e(
    400,
    'The path is not in its canonical form.',
    'The path has a trailing slash, an empty segment (//), a dot segment (. or ..), a percent-encoded letter, ' +
      'digit or -._~, or an escape in lower case; the same resource has exactly one spelling, so idempotency ' +
      'keys and the journal name it one way.',
    'Send the path the message names (the one /openapi.json lists).',
  ),
  METHOD_NOT_ALLOWED: e(
    405,
    'This method is not allowed on this path.',
    'The path exists with other methods.',
    'Check the method against /openapi.json.',
  ),
  INVALID_DATE: e(
    422,
    'A date is not a valid calendar date (YYYY-MM-DD).',
    'The date is malformed or does not exist.',
    'Send a real date as YYYY-MM-DD.',
  ),
  INVALID_RANGE: e(
    422,
    'The range is invalid.',
    'The end is before the start, or the range is too long.',
    'Send start <= end within the documented maximum.',
  ),
  DATE_OUT_OF_RANGE: e(
    422,
    'The date is outside the dates the sandbox handles.',
    'A date before 1900-01-01 or after 2199-12-31 was sent; the calendar and every report compute only inside ' +
      'that window.',
    'Send a date from 1900-01-01 to 2199-12-31 (YYYY-MM-DD).',
  ),
  DATE_IN_FUTURE: e(
    422,
    'The date is after today on the sandbox clock.',
    'A report was asked for a date that has not happened yet in the simulation.',
    'Send today or an earlier date (YYYY-MM-DD), or advance the sandbox clock first.',
  ),
  INVALID_TIMESTAMP: e(
    422,
    'A timestamp is not valid RFC 3339.',
    'The value could not be parsed as an RFC 3339 timestamp.',
    'Send a timestamp such as 2026-11-22T10:00:00+02:00.',
  ),
  RATE_LIMITED: e(
    429,
    'Too many requests.',
    'The request rate exceeded the limit.',
    'Retry after the delay in Retry-After.',
  ),
  BAD_GATEWAY: e(
    502,
    'The service answered through a failing gateway.',
    'A gateway in front of the service failed to get its answer (in the sandbox: a fault rule fired; nothing ' +
      'was changed).',
    'Retry with the same Idempotency-Key after a short back-off.',
  ),
  SERVICE_UNAVAILABLE: e(
    503,
    'The service is temporarily unavailable.',
    'The service cannot take the request now (in the sandbox: a fault rule fired; nothing was changed).',
    'Retry after the delay in Retry-After, with the same Idempotency-Key.',
  ),
  INTERNAL: e(
    500,
    'An internal error occurred.',
    'The service failed unexpectedly; nothing was changed.',
    'Retry with the same Idempotency-Key; report the request_id if it persists.',
  ),
  ANSWER_OFF_CONTRACT: e(
    500,
    'The answer does not match its documented schema.',
    'Only a daemon started with the answer checker on (the test suite) answers this: the reply a route ' +
      'produced did not parse with the response schema /openapi.json documents for it (or the error schema), and ' +
      'was withheld. The message names the route, the method, the path and the first differences.',
    'This is a bug of the sandbox: report the message and the request_id.',
  ),

  // Authentication, signing, idempotency
  UNAUTHENTICATED: e(
    401,
    'Missing or unknown credentials.',
    'No bearer key (or operator key) was sent, or it is not known.',
    'Send Authorization: Bearer <api_key> (operators: X-Admin-Key or X-Console-Key).',
  ),
  SIGNATURE_INVALID: e(
    401,
    'The request signature is missing or does not match.',
    'X-Svc-Timestamp or X-Svc-Signature is missing, or the HMAC does not match the request.',
    'Sign "v1\\n" + timestamp + "\\n" + METHOD + "\\n" + path + "\\n" + raw_query + "\\n" + idempotency_key + ' +
      '"\\n" + hex(sha256(body)) with the signing secret; see docs/api.md.',
  ),
  SIGNATURE_EXPIRED: e(
    401,
    'The request timestamp is outside the accepted window.',
    'X-Svc-Timestamp differs from the server wall clock by more than 300 seconds.',
    'Sync the client clock and sign again with a fresh timestamp.',
  ),
  STEP_UP_REQUIRED: e(
    401,
    'This action needs a fresh step-up code.',
    'Money and approval actions need a step-up-fresh key: X-Step-Up-Code, a TOTP (RFC 6238, SHA-1, 6 digits, ' +
      "30 s steps of the wall clock) of the identity's step-up secret, opens the key's step-up window for 5 " +
      'minutes, in which no code is needed; no window is open and the code is missing, or the code is wrong, ' +
      'older than one step, or was already used.',
    "Send the current code of the identity's step-up secret (svc computes it from the credentials file); each " +
      'code is accepted once, and for 5 minutes after it the same key needs none.',
  ),
  FORBIDDEN: e(
    403,
    'The credentials lack the grant this route needs.',
    'The operator identity does not hold the required grant.',
    'Use an identity that holds the grant named in the message.',
  ),
  CSRF_REFUSED: e(
    403,
    'A console call must come from the console page with its session token.',
    'A state-changing call made with a console session cookie came from another origin, or without the ' +
      'X-CSRF-Token of its session.',
    'Call from the console page itself: it sends its Origin and the token it reads when it signs in.',
  ),
  ENROLMENT_CODE_INVALID: e(
    401,
    'The enrolment code is unknown, used or expired.',
    'A passkey enrolment needs a one-time code printed by svc console enroll; each code enrols once and expires.',
    'Run svc console enroll --as ROLE again and open the new link.',
  ),
  PASSKEY_REJECTED: e(
    401,
    'The passkey did not verify.',
    'The WebAuthn registration or assertion did not match its challenge, origin, relying party or stored ' +
      'public key, or the passkey is not registered.',
    'Try again from the console page; enrol a passkey first if this identity has none.',
  ),
  IDEMPOTENCY_KEY_REQUIRED: e(
    400,
    'This route requires an Idempotency-Key header.',
    'The Idempotency-Key header is missing or empty.',
    'Send a unique Idempotency-Key (1-255 characters) per logical request.',
  ),
  IDEMPOTENCY_KEY_INVALID: e(
    400,
    'The Idempotency-Key header is not valid.',
    'The key is longer than 255 characters or contains control characters.',
    'Send a printable key of 1-255 characters.',
  ),
  IDEMPOTENCY_KEY_REUSED: e(
    422,
    'This Idempotency-Key was used with a different request body.',
    'The same key was sent earlier with another body on the same route.',
    'Use a new key for a new request; reuse a key only to retry the identical request.',
  ),
  IDEMPOTENCY_KEY_IN_USE: e(
    409,
    'A request with this Idempotency-Key is still being processed.',
    'Another request with the same key is in flight.',
    'Wait for the first request to finish, then retry.',
  ),

  // Sandbox controls and clock
  SANDBOX_ONLY: e(
    403,
    'This control exists only in the sandbox.',
    'Sandbox controls are not available in this environment.',
    'Use the sandbox host.',
  ),
  CLOCK_NOT_ADVANCEABLE: e(
    422,
    'The clock cannot move that way.',
    'The clock only moves forward, by a positive amount.',
    'Advance by a positive duration, or to a later instant.',
  ),
  CLOCK_ADVANCE_TOO_LARGE: e(
    422,
    'The clock advance is larger than allowed in one call.',
    'One advance is limited to 3,660 simulated days.',
    'Advance in several smaller steps.',
  ),
  REPLAY_SESSION_REQUIRED: e(
    409,
    'Journal entries are replayed only inside an open replay session.',
    'Only the offline rebuild (svc sandbox replay, which runs the daemon with --replay on a new home, ' +
      'listening on nothing) replays an entry as its recorded principal, inside its own replay session and while ' +
      'the sandbox holds only replayed entries (anything else journaled closes the session). No running sandbox ' +
      'takes replayed entries.',
    'Rebuild from the whole journal with svc sandbox replay JOURNAL (--home DIR keeps the rebuilt sandbox).',
  ),
  REPLAY_OUT_OF_ORDER: e(
    409,
    'The entry is not the next one of the journal being replayed.',
    "The offline rebuild takes the journal's entries in order, each seq one more than the last replayed.",
    'Replay the whole journal from seq 1 (svc sandbox replay JOURNAL).',
  ),
  SANDBOX_NOT_FRESH: e(
    409,
    'The sandbox has already run requests.',
    'The offline rebuild replays a journal only into a new sandbox whose journal is empty: a journal replays ' +
      'from its origin.',
    "Replay into a new home: svc sandbox replay creates it with the journal's seed and start; a reset is not " +
      'enough, since the journal survives it.',
  ),
  REPLAY_ORIGIN_MISMATCH: e(
    409,
    "The sandbox was not created with the journal's origin.",
    "The seed, start, clock mode or speed of this sandbox differ from those in the journal's header.",
    "Replay with svc sandbox replay, which creates the new sandbox with the journal's origin.",
  ),
  UNKNOWN_SYMBOL: e(
    404,
    'No instrument has this symbol.',
    'The symbol is not in the catalog.',
    'List symbols with GET /v1/instruments.',
  ),
  UNKNOWN_MARKET: e(
    404,
    'No market has this id.',
    'The market id is not XCAI.',
    'Use market_id XCAI (the Egyptian Exchange).',
  ),
  PRICE_OFF_TICK: e(
    422,
    'The price is not on the tick grid.',
    'Prices move in ticks: 0.01 EGP at or above 2 EGP, 0.001 EGP below.',
    'Round the price to a multiple of the tick for its level.',
  ),
  TENANT_NAME_TAKEN: e(
    409,
    'A tenant with this name already exists.',
    'Tenant names are unique.',
    'Choose another name.',
  ),

  // Ledger, transfers and the funding desk (docs/ledger.md, docs/funding.md)
  AMOUNT_TOO_LARGE: e(
    422,
    'The amount is too large to be represented exactly.',
    'Amounts are integer micros up to 9,007,199,254,740,991; a larger amount, or one that would take a balance ' +
      'past that bound, is refused rather than rounded.',
    'Send a smaller amount in integer micros (1 EGP = 1,000,000).',
  ),
  TRANSFER_LIMIT_EXCEEDED: e(
    422,
    'The transfer exceeds the per-transfer limit of 70,000 EGP.',
    'One transfer moves at most 70,000 EGP (70000000000 micros).',
    'Split the amount into several transfers of at most 70,000 EGP, within the daily limit.',
  ),
  DAILY_TRANSFER_LIMIT_EXCEEDED: e(
    422,
    'The transfer would exceed the daily limit of 200,000 EGP for this investor.',
    'Deposits and withdrawals of one investor total at most 200,000 EGP per Africa/Cairo calendar day of the ' +
      'sandbox clock; failed transfers do not count.',
    'Send at most the remaining amount named in the message, or wait for the next Cairo day.',
  ),
  TRANSFER_NOT_PENDING_APPROVAL: e(
    422,
    'The transfer is not waiting for a funding decision.',
    'Only transfers created while manual funding approval was on, and not yet approved or rejected, can be ' +
      'approved or rejected.',
    'List the waiting transfers with GET /broker/v1/funding.',
  ),
  INVALID_FUNDING_REASON: e(
    422,
    'reason_code is not a known funding rejection reason.',
    'A funding rejection names one of SOURCE_OF_FUNDS_UNVERIFIED, NAME_MISMATCH, AML_REVIEW, LIMIT_POLICY, ' +
      'DEALER_REJECTED.',
    'Send one of the listed reason codes.',
  ),
  INVALID_CURSOR: e(
    422,
    'before does not name an item of this list.',
    'The paging cursor must be the id of an item returned by the same list (same investor).',
    'Page with the id of the last item of the previous page, or omit before for the newest items.',
  ),

  // Orders (spec table)
  INVALID_SIDE: e(
    422,
    'side must be buy or sell.',
    'The side field is missing or not one of buy, sell.',
    'Send side "buy" or "sell".',
  ),
  INVALID_TYPE: e(
    422,
    'type must be market or limit.',
    'The type field is missing or not one of market, limit.',
    'Send type "market" or "limit".',
  ),
  INVALID_QTY: e(
    422,
    'qty must be a whole number of shares greater than 0.',
    'The quantity is missing, fractional, zero, negative or too large.',
    'Send a positive integer number of shares.',
  ),
  INVALID_PRICE: e(
    422,
    'limit_price_micros is invalid.',
    'A limit order needs a positive integer limit_price_micros; a market order must not carry one.',
    'Send an integer price in micros for limit orders only.',
  ),
  INVALID_TIME_IN_FORCE: e(
    422,
    'time_in_force must be day, gtc, ioc or fok.',
    'The time_in_force value is not supported.',
    'Send one of day, gtc, ioc, fok (default day).',
  ),
  TICK_VIOLATION: e(
    422,
    'The limit price is not a multiple of the tick.',
    'The tick is 0.01 EGP at prices of 2 EGP and above, 0.001 EGP below.',
    'Round the limit price to the tick grid.',
  ),
  PRICE_BAND_EXCEEDED: e(
    422,
    'The limit price is outside the daily price band.',
    'Limit prices must lie within plus or minus 20% of the reference price (previous close).',
    'Read the band from GET /v1/instruments/{symbol}/quote and price inside it.',
  ),
  INSUFFICIENT_SETTLED_CASH: e(
    422,
    'Settled cash does not cover the order.',
    'Buys and withdrawals draw on settled cash only: a buy reserves quantity x price (band ceiling for market ' +
      'orders) plus the fee ceiling; a withdrawal holds its amount.',
    'Deposit funds, wait for settlement, or reduce the quantity or amount.',
  ),
  INSUFFICIENT_SETTLED_SECURITIES: e(
    422,
    'Settled shares do not cover the sell.',
    'A sell needs settled shares; shares bought in the last two business days are unsettled (T+2).',
    'Reduce the quantity or wait for settlement.',
  ),
  INSUFFICIENT_BUYING_POWER: e(
    422,
    'Buying power does not cover the order.',
    'At execution time the reserved cash did not cover the fill.',
    'Deposit funds or reduce the quantity.',
  ),
  SUITABILITY_REQUIRED: e(
    422,
    'The suitability questionnaire is not on file.',
    'Equity trading requires a recorded suitability questionnaire.',
    'PUT /v1/investors/{id}/suitability with the questionnaire.',
  ),
  RISK_ACK_REQUIRED: e(
    422,
    'The risk disclosure has not been acknowledged.',
    'Equity trading requires risk_acknowledged = true.',
    'PUT /v1/investors/{id}/suitability with risk_acknowledged true.',
  ),
  INVESTOR_RESTRICTED: e(
    422,
    'The investor is restricted and may only reduce positions.',
    'A restricted account may sell existing holdings but not open new positions.',
    'Contact the broker to lift the restriction.',
  ),
  INVESTOR_CLOSED: e(
    422,
    'The account is closed and read-only.',
    'A closed account accepts no orders or transfers.',
    'Contact the broker.',
  ),
  INVESTOR_NOT_APPROVED: e(
    422,
    'The investor is not approved.',
    'Funding and trading need an approved KYC application (an investor_id).',
    'Complete KYC and wait for approval.',
  ),
  SHARIAH_RESTRICTED: e(
    422,
    'The instrument is excluded by the shariah-only election.',
    'The investor elected shariah-only and the instrument is not shariah-compliant.',
    'Choose a shariah-compliant instrument.',
  ),
  MARKET_CLOSED: e(
    422,
    'The market is closed and this order cannot be queued.',
    'ioc and fok orders need an open session; they are never queued.',
    'Send a day or gtc order, or wait for the session to open.',
  ),
  INSTRUMENT_HALTED: e(
    422,
    'Trading in the instrument is halted.',
    'The symbol is halted.',
    'Wait for the halt to be lifted.',
  ),
  INSTRUMENT_NOT_ORDERABLE: e(
    422,
    'The instrument cannot be ordered through /v1/orders.',
    'Bonds and sukuk are not orderable in this release.',
    'Trade equities only.',
  ),
  CLIENT_ORDER_ID_EXISTS: e(
    422,
    'client_order_id was already used by this tenant.',
    'client_order_id is unique per tenant, forever.',
    'Send a new client_order_id.',
  ),
  ORDER_NOT_CANCELLABLE: e(
    422,
    'The order is in a terminal state and cannot be cancelled.',
    'Filled, cancelled, rejected and expired orders cannot be cancelled.',
    'No action needed; read the order to see its final state.',
  ),
  ORDER_NOT_IN_QUEUE: e(
    422,
    'The order is not waiting at the dealer desk.',
    'Only open orders routed to the desk (auto-fill off when they were placed) can be executed or rejected by ' +
      'a dealer.',
    'List the waiting orders with GET /broker/v1/queue.',
  ),
  PRICE_WORSE_THAN_LIMIT: e(
    422,
    "The execution price is worse than the order's limit.",
    'A buy never executes above its limit, a sell never below it.',
    'Execute at the limit or better, or leave the order waiting.',
  ),
  INVALID_REJECT_REASON: e(
    422,
    'reason_code is not a dealer reject reason.',
    'A dealer rejection names one of the dealer reasons of the reject-code registry ' +
      '(fixtures/reject-codes.json): DEALER_REJECTED, COMPLIANCE_REVIEW, PRICE_AWAY_FROM_MARKET, ' +
      'DUPLICATE_ORDER_SUSPECTED, INSTRUMENT_HALTED, INSUFFICIENT_BUYING_POWER.',
    'Send one of the listed reason codes.',
  ),
  NO_EXECUTIONS: e(
    422,
    'The order has no executions yet.',
    'A contract note exists only after the first fill.',
    'Wait for a fill, then request the contract note.',
  ),

  // Funds and dividends (docs/portfolio.md)
  UNKNOWN_FUND: e(
    404,
    'No fund has this code.',
    "The fund_code is not one of the sandbox's money-market funds.",
    'List the funds with GET /v1/funds.',
  ),
  BELOW_MINIMUM_SUBSCRIPTION: e(
    422,
    "The subscription is below the fund's minimum first subscription.",
    'A first subscription to a fund (no units held) must be at least its min_subscription_micros.',
    'Subscribe at least the minimum named in the message; later subscriptions have no minimum.',
  ),
  FUND_ORDER_TOO_SMALL: e(
    422,
    'The fund order moves nothing at the current NAV.',
    'The amount buys less than one unit-micro, or the units redeemed are worth less than one micro.',
    'Send a larger amount_micros or units_micros.',
  ),
  DATE_IN_PAST: e(
    422,
    "The date is before the sandbox's current date.",
    'The date must be today or later on the simulated clock (Africa/Cairo).',
    'Read the clock with GET /v1/clock and send today or a later date.',
  ),

  // Onboarding: KYC applications, documents, suitability, account status (docs/onboarding.md)
  INVALID_FULL_NAME: e(
    422,
    'full_name is not a valid name.',
    'The name must be 2-120 characters of letters (any script, Arabic included) with spaces, apostrophes, ' +
      'hyphens or periods between words.',
    "Send the holder's full name as on the national id card.",
  ),
  INVALID_NATIONAL_ID: e(
    422,
    'national_id is not a valid Egyptian national id.',
    'The id must be 14 digits: century 2 or 3, a real birth date YYMMDD, a known governorate code, then ' +
      'sequence, gender and check digits.',
    'Send the 14-digit number from the national id card; the message names the part that is wrong.',
  ),
  INVALID_DATE_OF_BIRTH: e(
    422,
    'date_of_birth is not a valid date (YYYY-MM-DD).',
    'The date of birth is malformed or names a day that does not exist.',
    'Send a real date as YYYY-MM-DD.',
  ),
  DATE_OF_BIRTH_MISMATCH: e(
    422,
    'date_of_birth does not match the birth date encoded in national_id.',
    'Digits 1-7 of the national id encode the century and birth date; they must equal date_of_birth.',
    'Correct date_of_birth or national_id so that both name the same day.',
  ),
  UNDERAGE: e(
    422,
    'The applicant is under the minimum age.',
    'Accounts are opened for applicants aged 18 or more at the sandbox date.',
    'Apply when the applicant is 18; minors are not onboarded in this release.',
  ),
  INVALID_EMAIL: e(
    422,
    'email is not a valid email address.',
    'The address must have one @ and a domain with a dot, at most 254 characters, no spaces.',
    'Send a deliverable email address such as name@example.com.',
  ),
  INVALID_PHONE: e(
    422,
    'phone is not an Egyptian mobile number.',
    'The number must match ^(?:\\+20|0)(10|11|12|15)\\d{8}$ (an Egyptian mobile in national or +20 form).',
    'Send the mobile as 01XXXXXXXXX or +201XXXXXXXXX without spaces.',
  ),
  INVALID_ADDRESS: e(
    422,
    'address is not valid.',
    'The address must be 5-300 characters without control characters.',
    'Send the residential address as one line.',
  ),
  DUPLICATE_NATIONAL_ID: e(
    409,
    'An approved investor with this national id already exists for this tenant.',
    'One person holds one account per tenant; the national id matches an approved application.',
    'Use the existing investor_id instead of applying again.',
  ),
  UNKNOWN_DOCUMENT_SIDE: e(
    404,
    'No such document side.',
    'Documents are national_id_front and national_id_back.',
    'PUT the image to .../documents/national_id_front or .../documents/national_id_back.',
  ),
  DOCUMENTS_INCOMPLETE: e(
    422,
    'Only one side of the national id is on file.',
    'A submission with documents needs both national_id_front and national_id_back; with none it takes the ' +
      'dossier-only path.',
    'Upload the missing side, then submit again.',
  ),
  APPLICATION_ALREADY_SUBMITTED: e(
    409,
    'The application is already submitted and under review.',
    'A submitted application (screening_referred) can no longer be changed or submitted again.',
    "Poll GET /v1/kyc/applications/{id} for the broker's decision.",
  ),
  APPLICATION_ALREADY_DECIDED: e(
    409,
    'The application is already approved or rejected.',
    'A decision is final; the application cannot be changed, submitted or reviewed again.',
    'Read the decision with GET /v1/kyc/applications/{id}; after a rejection, create a new application.',
  ),
  APPLICATION_NOT_REFERRED: e(
    409,
    'The application is not waiting for a review.',
    'Only applications in screening_referred can be cleared or declined.',
    'List the review queue with GET /broker/v1/kyc.',
  ),
  INVALID_REASON_CODE: e(
    422,
    'reason_code is not a known decline reason.',
    'A decline names one of SCREENING_MATCH, IDENTITY_NOT_VERIFIED, DOCUMENTS_ILLEGIBLE, DOCUMENTS_MISMATCH, ' +
      'DUPLICATE_INVESTOR, OTHER.',
    'Send one of the listed reason codes.',
  ),
  INVALID_QUESTIONNAIRE: e(
    422,
    'The suitability questionnaire is not valid.',
    'A questionnaire field is missing or not one of its documented values (see docs/onboarding.md).',
    'Read the field path in the message and send one of its documented values.',
  ),
  INVALID_ACCOUNT_STATUS: e(
    422,
    'status must be active, restricted or closed.',
    'The account status is not one of active, restricted, closed.',
    'Send active, restricted or closed.',
  ),
  ACCOUNT_STATUS_UNCHANGED: e(
    409,
    'The account already has this status.',
    'A status change must change the status.',
    'Read the account first; send a different status.',
  ),

  // Branding: the tenant's theme for statements and reports (docs/branding.md)
  INVALID_COLOR: e(
    422,
    'A colour is not a #rrggbb hex colour.',
    'primary_color and accent_color are exactly # followed by six hexadecimal digits; short forms (#fff) and ' +
      'names (red) are refused.',
    'Send the colour as #rrggbb, e.g. #1F3A5F.',
  ),
  UNDRAWABLE_TEXT: e(
    422,
    'The text holds a character the statement fonts cannot draw.',
    'Statements embed their fonts with no fallback (Noto Sans, Noto Serif, Amiri); a character none of them ' +
      'draws (Tamil, Yi, an emoji ...) would vanish from the PDF, so text that reaches a statement is refused ' +
      'where it is written (the message names the field and the character).',
    'Write the text in Latin or Arabic script without emoji, or (branding) choose a font that draws it.',
  ),
  UNSUPPORTED_FONT: e(
    422,
    'font is not one of the embedded fonts.',
    'Reports embed their fonts; only the embedded set can be chosen (the message lists it).',
    'Send one of the fonts the message lists, spelled exactly.',
  ),
  LOGO_NOT_RENDERABLE: e(
    422,
    'The logo is a PNG or JPEG the statement renderer cannot draw.',
    'The file starts like a PNG or JPEG, but its structure is damaged, it uses a feature the renderer does not ' +
      'read (a palette image without its palette, arithmetic coding, a 12-bit or lossless JPEG, animation), or ' +
      'it is larger than 2048 pixels a side or 16 MiB of decoded pixels; the message names which.',
    'Export the logo again as an 8-bit PNG or a baseline JPEG, at most 2048 pixels a side.',
  ),

  // Reports
  INVALID_PERIOD: e(
    422,
    'The report period is not valid.',
    'period_start is after period_end, or period_end is after today (the sandbox clock).',
    'Send period_start <= period_end <= today, as YYYY-MM-DD.',
  ),
  PERIOD_BEFORE_ACCOUNT: e(
    422,
    "The report period starts before the investor's account was opened.",
    "period_start is before the first day of the month in which the investor's account was opened; there is " +
      'nothing to report before it.',
    "Send period_start on or after the first day of the account's opening month (YYYY-MM-DD).",
  ),
  PERIOD_TOO_LONG: e(
    422,
    'The report period is too long.',
    'A statement covers at most 3,660 days (about ten years).',
    'Ask for several statements of at most 3,660 days each.',
  ),
  UNSUPPORTED_LOCALE: e(
    422,
    'The report locale is not supported.',
    'Statements are written in English (en) or Arabic (ar).',
    'Send locale en or ar.',
  ),
  REPORT_NOT_READY: e(
    409,
    'The report is not ready yet.',
    'The PDF is generated asynchronously.',
    'Poll GET /v1/reports/{id} until state is ready.',
  ),
  REPORT_PURGED: e(
    410,
    'The report has been purged after its retention period.',
    'Reports are retained at least 7 years, then purged.',
    'Request a new report for the period.',
  ),

  // Surveillance and complaints (docs/surveillance.md, docs/complaints.md)
  SURVEILLANCE_DATE_INVALID: e(
    422,
    'The surveillance date is not a past or current trading day.',
    'A run looks at one EGX session: the date is in the future (by the sandbox clock) or the exchange does not ' +
      'trade that day (a weekend or a holiday).',
    'Send a trading day up to today, as YYYY-MM-DD, or leave date out for the latest session.',
  ),
  ALERT_NOTE_REQUIRED: e(
    422,
    'Closing an alert needs a note.',
    'An alert is closed with the reason it was closed (a note of 1-2000 characters), kept with the alert.',
    'Send { "note": "..." } saying why the alert is closed.',
  ),
  ALERT_STATE_CONFLICT: e(
    409,
    'The alert cannot make this change from its state.',
    'An alert moves open -> escalated -> closed or open -> closed; a closed alert is final and an escalated ' +
      'one is not escalated again.',
    'Read the alert first (its state is in every answer) and send a change that state allows.',
  ),
  COMPLAINT_TRANSITION_INVALID: e(
    409,
    'The complaint cannot move to this state from its current state.',
    'A complaint moves received -> investigating -> resolved or rejected, one step at a time; a skipped step, ' +
      'a step back or a change of a resolved or rejected complaint is refused and nothing changes.',
    'Read the complaint first; the message names the states it can move to.',
  ),
  COMPLAINT_NOTE_REQUIRED: e(
    422,
    'Resolving or rejecting a complaint needs a note.',
    'A complaint is resolved or rejected with its resolution (a note of 1-2000 characters), kept with the complaint.',
    'Send { "to": "resolved", "note": "..." }.',
  ),

  // Reconciliation (docs/reconciliation.md)
  RECONCILIATION_DATE_INVALID: e(
    422,
    'The date is not a past or current EGX business day.',
    'External statements exist for business days only: the date is after today (by the sandbox clock) or the ' +
      'exchange does not trade that day (a weekend or a holiday).',
    'Send a trading day up to today as YYYY-MM-DD (the market calendar lists them).',
  ),
  BREAK_LINE_ABSENT: e(
    422,
    'The external statement has no such line to break.',
    'A missing or duplicate break acts on a line of the statement, and the investor holds none of this asset ' +
      'on that date (so the custodian or the bank lists nothing).',
    'Pick an asset the investor holds on that date, or inject a position or cash break with an amount.',
  ),
  BREAK_STATE_CONFLICT: e(
    409,
    'The break cannot make this change from its state.',
    'A break moves open -> acknowledged -> resolved (or open -> resolved) once: an acknowledged break is not ' +
      'acknowledged again and a resolved break is final.',
    'Read the break to see its state; a new run opens a new break if the difference is still there.',
  ),

  // Back office: maker-checker (docs/backoffice.md)
  UNKNOWN_ACTION: e(
    422,
    'The action is not a base of the maker-checker catalog.',
    'POST /admin/actions takes action: one of the strict-split bases (ledger:adjust, broker:create, ...).',
    'Send one of the bases listed in docs/backoffice.md.',
  ),
  INVALID_ACTION_PARAMS: e(
    422,
    "The action's params are not valid for its base.",
    'Each base has its own params schema; a field is missing, of the wrong type, or not allowed.',
    'Read the field path in the message and correct params.',
  ),
  ACTION_ALREADY_DECIDED: e(
    409,
    'The action has already been approved or rejected.',
    'A proposal is decided once.',
    'List the proposals still open: svc api GET /admin/actions?state=proposed.',
  ),
  ACTION_EXPIRED: e(
    409,
    'The proposal has expired.',
    'A proposal can be decided for 24 hours of the sandbox clock after it was made.',
    'Propose the action again.',
  ),
  MAKER_CANNOT_APPROVE: e(
    403,
    'The maker of an action cannot decide it.',
    'Maker-checker: a different identity must approve or reject a proposal.',
    'Ask another identity holding <base>:approve.',
  ),
  ACTION_NOT_EXECUTABLE: e(
    422,
    'The approved action cannot be carried out as stored.',
    'Executing the payload was refused by the service it changes (the message names why); nothing was changed ' +
      'and the proposal stays open.',
    'Reject the proposal and propose a corrected one.',
  ),
  ACTION_NOT_AVAILABLE: e(
    501,
    'This base is stored and validated but cannot be executed yet.',
    'The base needs a part of the service this sandbox does not have yet (today every base executes; the code ' +
      'is kept for one that may not).',
    'Reject the proposal; see docs/backoffice.md for the bases that execute.',
  ),
  SPLIT_ALREADY_APPLIED: e(
    409,
    'The symbol was already split at this instant.',
    "A stock split takes effect at the sandbox clock's now; one symbol is split once per instant.",
    'Advance the clock before approving another split of the symbol, or reject the proposal.',
  ),
  SPLIT_NOT_APPLICABLE: e(
    422,
    'This split cannot be applied.',
    "Only an equity splits, by a whole ratio from 2 to 100; its reference price (and every open buy's limit) " +
      'divided by the ratio must stay at or above the smallest price (0.001 EGP); and no cash dividend of the ' +
      'symbol may be declared and waiting for its holders to be recorded.',
    'Reject the proposal and propose a split of an equity with a ratio that fits; with a dividend waiting, ' +
      'approve after its ex-date begins.',
  ),

  // Back office: sessions, keys, access reviews (docs/backoffice.md)
  SESSION_INVALID: e(
    401,
    'The console session is not valid.',
    'The session token is unknown, the session was revoked (or its identity was), or it was idle for more than ' +
      '30 minutes, or its stored record does not verify under the key-encryption key (inserted or edited in the ' +
      'database file).',
    'Sign in to the console again.',
  ),
  KEY_REVOKED: e(
    401,
    'This operator key was revoked.',
    "The identity's key was revoked (POST /admin/keys/revoke); a rotated key's old value is simply unknown " +
      '(UNAUTHENTICATED).',
    'Use another identity; a revoked identity stays revoked.',
  ),
  IDENTITY_DISABLED: e(
    401,
    'This identity is disabled.',
    'An approved console-users:disable disabled the identity: its keys and console sessions are refused.',
    'Use another identity; an approved console-users:manage with enable: true enables it again.',
  ),
  ACCESS_REVIEW_OWN_ACCESS: e(
    403,
    'A reviewer cannot decide an item about their own access.',
    'The item reviews a grant held by the identity deciding it.',
    'Ask another identity holding access-review:decide.',
  ),
  ACCESS_REVIEW_ITEM_DECIDED: e(
    409,
    'The review item has already been decided.',
    'An item of an access review is certified or revoked once.',
    'Read the campaign for the items still open: svc api GET /admin/access-reviews.',
  ),
  ACCESS_REVIEW_CLOSED: e(
    409,
    'The access review is closed.',
    'A campaign closes when its last item is decided; a closed campaign cannot change.',
    'Open a new campaign: svc admin access-review open.',
  ),

  // Sandbox fault rules (docs/faults.md)
  FAULT_ROUTE_UNKNOWN: e(
    422,
    'route: no tenant route has this method and template.',
    'A fault rule names its route as "METHOD /v1/template" (e.g. "POST /v1/orders", "GET /v1/orders/{id}") or ' +
      '"*"; faults never touch the sandbox controls or the operator routes.',
    'Send a tenant route as the API reference lists it, or "*" for every tenant route.',
  ),
  FAULT_TRIGGER_INVALID: e(
    422,
    'every, probability, times: a rule fires on at most one trigger.',
    'A fault rule fires every N matching requests, with a probability, or for the next K: at most one of ' +
      'every, probability and times.',
    'Send one of every (N >= 1), probability (0 < p <= 1) or times (K >= 1); none fires on every matching request.',
  ),
  FAULT_EFFECT_INVALID: e(
    422,
    'effect: the fault effect is not valid.',
    'An effect is status (429, 500, 502 or 503), latency (ms, or min_ms..max_ms), reset, lost_response or ' +
      'timeout (seconds).',
    'Send an effect as docs/faults.md lists them.',
  ),

  // Assistant
  NOT_AVAILABLE: e(
    501,
    'No inference provider is configured.',
    'This answer needs an inference provider and the sandbox runs with --ai none. Only the narration of an ' +
      'order that was not rejected needs one: the glossary, the disclosures, the error explainer and the ' +
      'explanation of a rejected order answer without a provider.',
    'Start or reset the sandbox with --ai registry (templates, no model) or --ai openai:<base_url> (a local ' +
      'OpenAI-compatible model server).',
  ),
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string };
  request_id: string;
}
