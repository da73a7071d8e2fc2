// The accounts' HTTP routes (docs/protocol.md §23), JSON in and out. The session travels in the
// HttpOnly cookie, which the page never reads. Errors are thrown as ApiError with the server's
// code and message (and, for too_many_attempts, the seconds to wait from Retry-After).

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = 0) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

async function call(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try { res = await fetch(path, init); } catch (e) { throw new ApiError(0, 'unreachable', `The server cannot be reached (${e.message}).`); }
  const data = await res.json().catch(() => null);
  if (res.ok && data) return data;
  const retry = Number(res.headers.get('Retry-After')) || 0;
  throw new ApiError(res.status, data?.error ?? 'http_error', data?.message ?? `HTTP ${res.status}`, retry);
}

export const get = (path) => call('GET', path);
export const post = (path, body = {}) => call('POST', path, body);
export const put = (path, body = {}) => call('PUT', path, body);
export const del = (path) => call('DELETE', path);

// A page of a list: ?offset=&limit=.
export const paged = (path, offset, limit) => get(`${path}?offset=${offset}&limit=${limit}`);

// What to tell the user of a failed request (the server's message says how long to wait).
export function errorText(e) {
  if (e.code === 'too_many_attempts' && e.retryAfter && !/\d/.test(e.message)) return `${e.message} (try again in ${e.retryAfter} s)`;
  return e.message;
}
