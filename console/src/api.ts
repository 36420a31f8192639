// Every call the console makes: same origin, the session cookie (HttpOnly, so the page never sees
// it), and on state changes the session's CSRF token. A refusal is thrown as ApiError with the
// spec's error body (code and message), which the screens show as they are.
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

let csrfToken = '';
export const setCsrfToken = (t: string): void => {
  csrfToken = t;
};

async function parse<T>(res: Response): Promise<T> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError('BAD_RESPONSE', `The server answered ${res.status} without JSON.`, res.status);
  }
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(e?.code ?? `HTTP_${res.status}`, e?.message ?? res.statusText, res.status);
  }
  return json as T;
}

export async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') {
    headers['x-csrf-token'] = csrfToken;
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  return parse<T>(res);
}

/** A binary read (an ID image) as an object URL. */
export async function blobUrl(path: string): Promise<string> {
  const res = await fetch(path, { credentials: 'same-origin' });
  if (!res.ok) await parse(res);
  return URL.createObjectURL(await res.blob());
}
