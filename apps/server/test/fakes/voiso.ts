import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { VoisoAgent } from '../../src/integrations/voiso/client.ts';

/**
 * A local Voiso cluster (v1 contact-center API) at http://127.0.0.1:{port}/{cluster}, so VOISO_BASE_URL is
 * `${fake.url}/{cluster}` and a wrong cluster id is a 404 like an unknown host would fail:
 * - POST /{cluster}/api/v1/{key}/click2call?agent&number[&account_id&crm&get_call_id] -> 200 {call_id} with
 *   get_call_id=true, else 204; 403 {"error":"Invalid api_key"}; 400 {"errors":"User not found"} for an agent that
 *   is neither an email nor an extension of the contact center; 400 for a number that is not E.164 digits.
 * - GET /{cluster}/api/v1/{key}/agents_status[.json] -> [{email, ext, status}].
 * `failWith` answers every request with that HTTP status; `delayMs` holds every answer back (timeouts).
 */
export class FakeVoiso {
  readonly server: http.Server;
  readonly calls: Array<{ method: string; path: string; query: Record<string, string>; callId: string | null }> = [];
  static readonly REFUSAL = 'Invalid api_key';
  failWith: number | null = null;
  delayMs = 0;

  private constructor(
    readonly cluster: string,
    private readonly validKey: string,
    public agents: VoisoAgent[],
  ) {
    this.server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const query = Object.fromEntries(url.searchParams);
      const entry = { method: req.method ?? '', path: url.pathname, query, callId: null as string | null };
      this.calls.push(entry);
      const answer = (status: number, body?: unknown) => {
        const send = () => {
          if (res.destroyed) return;
          if (body === undefined) res.writeHead(status).end();
          else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        };
        if (this.delayMs > 0) setTimeout(send, this.delayMs).unref();
        else send();
      };
      const m = /^\/([^/]+)\/api\/v1\/([^/]+)\/(click2call|agents_status(?:\.json)?)$/.exec(url.pathname);
      if (!m || m[1] !== this.cluster) return answer(404, { error: 'Not found' });
      if (this.failWith) return answer(this.failWith, { error: 'Service Unavailable' });
      if (decodeURIComponent(m[2]) !== this.validKey) return answer(403, { error: FakeVoiso.REFUSAL });
      if (m[3] === 'click2call') {
        if (req.method !== 'POST') return answer(405, { error: 'Method Not Allowed' });
        const agent = (query.agent ?? '').toLowerCase();
        if (!agent || !query.number)
          return answer(400, {
            errors: { agent: agent ? [] : ['is missing'], number: query.number ? [] : ['is missing'] },
          });
        if (!this.agents.some((a) => a.email === agent || a.ext === agent))
          return answer(400, { errors: 'User not found' });
        if (!/^[1-9][0-9]{5,14}$/.test(query.number))
          return answer(400, { errors: { number: ['must be in E.164 format without +'] } });
        if (query.get_call_id === 'true') {
          entry.callId = randomUUID();
          return answer(200, { call_id: entry.callId });
        }
        return answer(204);
      }
      if (req.method !== 'GET') return answer(405, { error: 'Method Not Allowed' });
      return answer(200, this.agents);
    });
  }

  static async start(cluster: string, validKey: string, agents: VoisoAgent[]): Promise<FakeVoiso> {
    const fake = new FakeVoiso(cluster, validKey, agents);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The VOISO_BASE_URL that reaches this fake. */
  get baseUrl(): string {
    return `${this.url}/{cluster}`;
  }

  /** The start-call requests Voiso accepted or refused, in order. */
  get startCalls() {
    return this.calls.filter((c) => c.path.endsWith('/click2call'));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
