import http from 'node:http';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * The built-in sandbox telephony: a local contact center on 127.0.0.1 that answers the Voiso adapter (client.ts)
 * in Voiso's v1 protocol, so click-to-call, the agent status chip and the call log work in the embedded demo without a
 * Voiso account. Like the sandbox card gateway it connects nobody and costs nothing; the product starts it in demo
 * mode only (VOISO_SANDBOX, modules/crm/telephony.ts) and never where a real Voiso is configured.
 *
 * - POST /{cluster}/api/v1/{key}/click2call?agent&number[&account_id&crm&get_call_id]: 200 {call_id} with
 *   get_call_id=true, else 204; 403 {"error":"Invalid api_key"}; 400 {"errors":"User not found"} for an agent who is no
 *   staff member; 400 for a number that is not E.164 digits without '+'. The agent is "outbound" for the length of the
 *   simulated call, then "available" again.
 * - GET /{cluster}/api/v1/{key}/agents_status: every agent the product lists (its staff who work leads), by email,
 *   with an extension and their status.
 * - When a simulated call ends (after its length, or when `hangUp` ends it sooner) it reports it the way Voiso's
 *   Call Outcome Logging does after each call: {uuid, agent_extension, start_time, end_time (unix seconds), type,
 *   duration (seconds), disposition, dnis, account_id}, handed to `onCallEnded` (the product's own receiver).
 */
export interface SandboxAgent {
  email: string;
  ext: string;
}

export interface SandboxCall {
  callId: string;
  agent: string;
  number: string;
  accountId: string | null;
  startedAt: Date;
}

/** Voiso's Call Outcome Logging report of a call that ended (modules/crm/call-ended.ts reads it). */
export interface CallOutcomeReport {
  uuid: string;
  agent_extension: string;
  start_time: number;
  end_time: number;
  type: 'outbound';
  duration: number;
  disposition: 'answered';
  dnis: string;
  account_id?: string;
}

export interface VoisoSandbox {
  /** The VOISO_BASE_URL-shaped origin template that reaches it ({cluster} in the path). */
  baseUrl: string;
  clusterId: string;
  apiKey: string;
  /** The calls it was asked to place, in order (newest last, the last 200). */
  calls: SandboxCall[];
  /** Ends a call now (the agent hung up) and waits for its report to be received; false when it had ended. */
  hangUp(callId: string): Promise<boolean>;
  close(): Promise<void>;
}

export const SANDBOX_CLUSTER = 'sandbox';

export async function startVoisoSandbox(opts: {
  /** The contact center's agents, read on every request (staff come and go). */
  agents: () => Promise<SandboxAgent[]>;
  /** How long a simulated call keeps its agent busy. */
  callMs?: number;
  /** Receives the report of each call that ended, as Voiso's Call Outcome Logging posts it. */
  onCallEnded?: (report: CallOutcomeReport) => Promise<unknown>;
}): Promise<VoisoSandbox> {
  const apiKey = randomBytes(24).toString('hex');
  const callMs = opts.callMs ?? 20_000;
  const busyUntil = new Map<string, number>();
  const calls: SandboxCall[] = [];
  // Calls under way: their end, due after callMs unless hung up sooner.
  const live = new Map<string, { end: () => Promise<void>; timer: NodeJS.Timeout }>();
  const ringing = (call: SandboxCall, ext: string) => {
    const end = async () => {
      const entry = live.get(call.callId);
      if (!entry) return;
      clearTimeout(entry.timer);
      live.delete(call.callId);
      busyUntil.delete(call.agent);
      const endedAt = Date.now();
      const report: CallOutcomeReport = {
        uuid: call.callId,
        agent_extension: ext,
        start_time: call.startedAt.getTime() / 1000,
        end_time: endedAt / 1000,
        type: 'outbound',
        duration: Math.round(endedAt - call.startedAt.getTime()) / 1000,
        disposition: 'answered',
        dnis: call.number,
        ...(call.accountId ? { account_id: call.accountId } : {}),
      };
      await opts.onCallEnded?.(report).catch(() => undefined);
    };
    const timer = setTimeout(() => void end(), callMs);
    timer.unref();
    live.set(call.callId, { end, timer });
  };
  const keyOk = (given: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(apiKey);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const server = http.createServer((req, res) => {
    const answer = (status: number, body?: unknown) => {
      if (body === undefined) res.writeHead(status).end();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const handle = async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const m = /^\/([^/]+)\/api\/v1\/([^/]+)\/(click2call|agents_status(?:\.json)?)$/.exec(url.pathname);
      if (!m || m[1] !== SANDBOX_CLUSTER) return answer(404, { error: 'Not found' });
      if (!keyOk(decodeURIComponent(m[2]))) return answer(403, { error: 'Invalid api_key' });
      const agents = await opts.agents();
      const now = Date.now();
      if (m[3] === 'click2call') {
        if (req.method !== 'POST') return answer(405, { error: 'Method Not Allowed' });
        const q = url.searchParams;
        const agent = (q.get('agent') ?? '').trim().toLowerCase();
        const number = q.get('number') ?? '';
        if (!agent || !number)
          return answer(400, { errors: { agent: agent ? [] : ['is missing'], number: number ? [] : ['is missing'] } });
        const who = agents.find((a) => a.email === agent || a.ext === agent);
        if (!who) return answer(400, { errors: 'User not found' });
        if (!/^[1-9][0-9]{5,14}$/.test(number))
          return answer(400, { errors: { number: ['must be in E.164 format without +'] } });
        const callId = randomUUID();
        busyUntil.set(who.email, now + callMs);
        const placed = { callId, agent: who.email, number, accountId: q.get('account_id'), startedAt: new Date(now) };
        calls.push(placed);
        if (calls.length > 200) calls.shift();
        ringing(placed, who.ext);
        return q.get('get_call_id') === 'true' ? answer(200, { call_id: callId }) : answer(204);
      }
      if (req.method !== 'GET') return answer(405, { error: 'Method Not Allowed' });
      return answer(
        200,
        agents.map((a) => ({
          email: a.email,
          ext: a.ext,
          status: (busyUntil.get(a.email) ?? 0) > now ? 'outbound' : 'available',
        })),
      );
    };
    handle().catch(() => {
      if (!res.headersSent) answer(500, { error: 'Internal Server Error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The sandbox never keeps the process alive on its own.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/{cluster}`,
    clusterId: SANDBOX_CLUSTER,
    apiKey,
    calls,
    async hangUp(callId) {
      const entry = live.get(callId);
      if (!entry) return false;
      await entry.end();
      return true;
    },
    async close() {
      for (const { timer } of live.values()) clearTimeout(timer);
      live.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
