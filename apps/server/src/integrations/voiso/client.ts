/**
 * Voiso contact-center API, v1 (the "Contact Center API key" kind), as Voiso documents it at developers.voiso.com
 * and docs.voiso.com/apidocs:
 *
 * - Base: https://{cluster_id}.voiso.com, the cluster id being the first label of the contact center's address
 *   (e.g. cc-ams03); the key is a path segment: /api/v1/{api_key}/...
 * - Start call ("click2call", "startcall"): POST /api/v1/{api_key}/click2call with query parameters
 *   agent (the agent's extension OR sign-in email), number (E.164 without '+', e.g. 447414992548), optional
 *   account_id (the CRM's contact id; Voiso then shows it instead of the number in the agent's softphone and in
 *   its reports: number masking), crm (name of the calling application, tags the CDR) and get_call_id=true
 *   (answer 200 {"call_id": "<uuid>"} instead of 204). Refusals: 400 (e.g. {"errors":"User not found"} for an
 *   unknown agent), 403 {"error":"Invalid api_key"}.
 * - Agent status: GET /api/v1/{api_key}/agents_status -> [{"email", "ext" (string|null), "status"}], status one of
 *   offline, available, unavailable, inbound, outbound, dialer, postcall; 403 {"error":"Invalid api_key"}.
 *
 * Gaps: the overview pages also show the start-call fields as a JSON body; the endpoint reference lists them as
 * query parameters, which is what we send. One overview lists statuses as Available, Idle, Logout..., so statuses
 * are lower-cased and `logout` read as offline. Voiso's newer v4 API (Bearer key, numeric user_id) is not used: it
 * needs Voiso's internal user id, which the spec's setting (cluster id + API key) and agentEmail do not give.
 * The number is sent as the lead's digits ('+' and a leading international 00 dropped); a lead stored without
 * its country code cannot be completed here and Voiso will dial it as it is.
 */

export interface VoisoCredentials {
  clusterId: string;
  apiKey: string;
}

export interface VoisoOptions {
  /** Origin template; `{cluster}` is replaced by the cluster id. */
  baseUrl: string;
  timeoutMs: number;
}

export interface VoisoAgent {
  email: string;
  ext: string | null;
  status: string;
}

/** Why Voiso did not do what was asked: refused key, refused request, down or unreachable, too slow, not its API. */
export type VoisoFailure = 'auth' | 'rejected' | 'unavailable' | 'timeout' | 'bad_response';

export class VoisoError extends Error {
  constructor(
    readonly kind: VoisoFailure,
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}

/** A cluster id is one DNS label; pasted addresses (https://cc-ams03.voiso.com/...) are reduced to it. */
export function parseClusterId(value: string | null | undefined): string | null {
  let v = (value ?? '').trim().toLowerCase();
  if (!v) return null;
  v = v
    .replace(/^https?:\/\//, '')
    .split('/')[0]
    .replace(/\.voiso\.com\.?$/, '');
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(v) ? v : null;
}

/** The number as Voiso wants it: digits only, no '+', no international 00 prefix; null when too short to dial. */
export function dialDigits(phone: string | null | undefined): string | null {
  let d = (phone ?? '').replace(/\D/g, '');
  if (d.startsWith('00')) d = d.slice(2);
  return d.length >= 6 && d.length <= 15 ? d : null;
}

/** Voiso's own words from an error body: {"error": "..."} or {"errors": "..." | {...} | [...]}. */
function upstreamMessage(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object') return null;
  const { error, errors, message } = body as { error?: unknown; errors?: unknown; message?: unknown };
  const flat = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : Array.isArray(v)
        ? v.flatMap(flat)
        : v && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => flat(x).map((m) => `${k} ${m}`))
          : [];
  const words = [...flat(error), ...flat(errors), ...flat(message)].join('; ').trim();
  return words ? words.slice(0, 200) : null;
}

function normalStatus(v: unknown): string {
  const s = typeof v === 'string' ? v.trim().toLowerCase().slice(0, 40) : '';
  if (s === 'logout' || s === 'logged out') return 'offline';
  return s || 'unknown';
}

export interface VoisoClient {
  /** Rings the agent's softphone and dials the number; resolves only once Voiso accepted the call. */
  startCall(input: {
    agent: string;
    number: string;
    accountId?: string;
    crm?: string;
  }): Promise<{ callId: string | null }>;
  agentsStatus(): Promise<VoisoAgent[]>;
}

export function createVoisoClient(creds: VoisoCredentials, opts: VoisoOptions): VoisoClient {
  const origin = opts.baseUrl.replace(/\/+$/, '').replaceAll('{cluster}', creds.clusterId);
  const base = `${origin}/api/v1/${encodeURIComponent(creds.apiKey)}`;

  const request = async (method: 'GET' | 'POST', path: string): Promise<{ status: number; text: string }> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(opts.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new VoisoError('timeout', `Voiso did not answer within ${Math.round(opts.timeoutMs / 1000)} s.`);
      throw new VoisoError('unavailable', 'Voiso could not be reached.');
    }
    const text = await res.text().catch(() => '');
    if (res.status === 401 || res.status === 403) {
      throw new VoisoError(
        'auth',
        `Voiso refused the API key (${upstreamMessage(text) ?? `HTTP ${res.status}`}): check the cluster id and API key in Trade APIs.`,
        res.status,
      );
    }
    if (res.status >= 500)
      throw new VoisoError(
        'unavailable',
        `Voiso is not available right now (HTTP ${res.status}). Please try again.`,
        res.status,
      );
    if (res.status >= 400) throw new VoisoError('rejected', upstreamMessage(text) ?? `HTTP ${res.status}`, res.status);
    return { status: res.status, text };
  };

  return {
    async startCall({ agent, number, accountId, crm }) {
      const q = new URLSearchParams({ agent, number, get_call_id: 'true' });
      if (accountId) q.set('account_id', accountId);
      if (crm) q.set('crm', crm);
      const { status, text } = await request('POST', `/click2call?${q}`);
      if (status === 204 || text.trim() === '') return { callId: null };
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        // A page that is not Voiso's JSON (a proxy, a wrong address) is no proof a call started.
        throw new VoisoError(
          'bad_response',
          'Voiso answered with something that is not its API: check the cluster id in Trade APIs.',
          status,
        );
      }
      const refusal =
        body && typeof body === 'object' && ('error' in body || 'errors' in body) ? upstreamMessage(text) : null;
      if (refusal) throw new VoisoError('rejected', refusal, status);
      const callId = (body as { call_id?: unknown } | null)?.call_id;
      return { callId: typeof callId === 'string' && callId ? callId.slice(0, 100) : null };
    },

    async agentsStatus() {
      const { text, status } = await request('GET', '/agents_status');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      if (!Array.isArray(body))
        throw new VoisoError(
          'bad_response',
          'Voiso answered the agent list with something that is not its API: check the cluster id in Trade APIs.',
          status,
        );
      return body
        .filter(
          (a): a is Record<string, unknown> =>
            !!a && typeof a === 'object' && typeof (a as { email?: unknown }).email === 'string',
        )
        .slice(0, 5000)
        .map((a) => ({
          email: String(a.email).trim().toLowerCase().slice(0, 255),
          ext: typeof a.ext === 'string' || typeof a.ext === 'number' ? String(a.ext).slice(0, 40) : null,
          status: normalStatus(a.status),
        }));
    },
  };
}
