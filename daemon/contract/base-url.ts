// The sandbox's own URLs in answers (logo_url, image_url) are absolute, on the host the client called,
// so a client can fetch them as they are (docs/api.md "URLs in answers").

export type RequestHeaders = Record<string, string | string[] | undefined>;

/** http://<Host header>, or http://localhost when the request named no host. */
export function baseUrl(headers: RequestHeaders): string {
  const host = typeof headers.host === 'string' ? headers.host : 'localhost';
  return `http://${host}`;
}

/** A path of the sandbox (/assets/...) on the base URL; an absolute URL stays as it is. */
export function onBase(base: string, path: string): string {
  return path.startsWith('/') ? base + path : path;
}
