import { GENERIC_ERROR } from '@platform/domain';

/** An API failure: HTTP status, the server's message and per-field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

type Body = Record<string, unknown> | unknown[] | FormData | undefined;

/** The address of an API path with its query (blank values left out), for fetch or a download link. */
export function apiUrl(path: string, query?: Record<string, unknown>): string {
  const qs = query
    ? new URLSearchParams(
        Object.entries(query)
          .filter(([, v]) => v !== undefined && v !== null && v !== '')
          .map(([k, v]) => [k, String(v)]),
      ).toString()
    : '';
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

/**
 * Asks the person for their password again (the re-authentication dialog registers itself here); true once the
 * session is confirmed, false when they cancel. Without one, a call that needs it fails with the server's message.
 */
type ReauthPrompt = (message: string) => Promise<boolean>;
let reauthPrompt: ReauthPrompt | null = null;
export function setReauthPrompt(prompt: ReauthPrompt | null): void {
  reauthPrompt = prompt;
}

/**
 * The one fetch wrapper: JSON in and out, cookies included, errors as ApiError with the server's message. A call the
 * server holds for a fresh password (401 with `reauth`) asks for it and is sent once more when confirmed.
 */
export async function api<T>(method: string, path: string, body?: Body, query?: Record<string, unknown>): Promise<T> {
  try {
    return await send<T>(method, path, body, query);
  } catch (err) {
    if (err instanceof ReauthNeeded && reauthPrompt && (await reauthPrompt(err.message)))
      return send<T>(method, path, body, query);
    throw err;
  }
}

class ReauthNeeded extends ApiError {}

async function send<T>(method: string, path: string, body?: Body, query?: Record<string, unknown>): Promise<T> {
  const isForm = body instanceof FormData;
  const res = await fetch(apiUrl(path, query), {
    method,
    credentials: 'include',
    headers: body && !isForm ? { 'content-type': 'application/json' } : undefined,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const d = (data ?? {}) as { message?: string; errors?: Record<string, string>; reauth?: boolean };
    if (res.status === 401 && d.reauth) throw new ReauthNeeded(401, d.message ?? GENERIC_ERROR);
    throw new ApiError(res.status, d.message ?? GENERIC_ERROR, d.errors);
  }
  return data as T;
}

export const apiGet = <T>(path: string, query?: Record<string, unknown>) => api<T>('GET', path, undefined, query);
export const apiPost = <T>(path: string, body?: Body) => api<T>('POST', path, body ?? {});
export const apiPut = <T>(path: string, body?: Body) => api<T>('PUT', path, body ?? {});
export const apiDelete = <T>(path: string) => api<T>('DELETE', path);

/** The server's message of a failure, else the given fallback (client-area spec §8). */
export function errorMessage(err: unknown, fallback = GENERIC_ERROR): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}
