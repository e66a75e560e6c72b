import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ERRORS, maskPhone, type CallAgentsResponse, type StartCallRequest } from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { leads, users } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import {
  createVoisoClient,
  dialDigits,
  parseClusterId,
  VoisoError,
  type VoisoAgent,
  type VoisoClient,
} from '../../integrations/voiso/client.ts';
import { getBranding, getSettings } from '../settings/service.ts';
import { recordCall, type CallProvider } from './call-log.ts';
import { isAgent, leadScope } from './scope.ts';
import { sandboxTelephonyOn, voisoSandbox } from './telephony.ts';

/**
 * Click-to-call through Voiso (back-office §2, §3 Call agent, §7 startCall; docs/decisions.md "Click-to-call").
 * The Trade APIs record `voiso` holds the cluster id (value1) and the contact center API key (value2); without both
 * the calls are off and say so. A call is claimed only once Voiso accepted it; every attempt on a lead lands in its
 * history (audit rows with subject 'lead').
 */
type Ctx = Pick<AppContext, 'db' | 'config' | 'dbKind'>;
type StartInput = z.output<typeof StartCallRequest>;

type Setup = { client: VoisoClient; cacheKey: string; provider: CallProvider } | { off: string };

/**
 * The Voiso client from the saved settings, read fresh so a change in Trade APIs applies to the next click. Without
 * settings, the built-in sandbox telephony answers in demo mode (telephony.ts), through the same client.
 */
async function voiso(ctx: Ctx): Promise<Setup> {
  const row = (await getSettings(ctx.db, ['voiso'])).voiso;
  const rawCluster = row?.value1?.trim() ?? '';
  const apiKey = row?.value2?.trim() ?? '';
  if (!rawCluster && !apiKey && sandboxTelephonyOn(ctx)) {
    const sandbox = await voisoSandbox(ctx);
    const client = createVoisoClient(
      { clusterId: sandbox.clusterId, apiKey: sandbox.apiKey },
      { baseUrl: sandbox.baseUrl, timeoutMs: ctx.config.VOISO_TIMEOUT_MS },
    );
    return { client, cacheKey: `sandbox|${sandbox.baseUrl}`, provider: 'sandbox' };
  }
  if (!rawCluster || !apiKey) return { off: ERRORS.VOISO_NOT_CONFIGURED.message };
  const clusterId = parseClusterId(rawCluster);
  if (!clusterId)
    return {
      off: 'Click-to-call is off: the Voiso cluster id in Trade APIs is not valid. Use the first part of your Voiso address, e.g. cc-ams03.',
    };
  if (apiKey.length > 255 || /\s/.test(apiKey))
    return { off: 'Click-to-call is off: the Voiso API key in Trade APIs is not valid.' };
  const client = createVoisoClient(
    { clusterId, apiKey },
    { baseUrl: ctx.config.VOISO_BASE_URL, timeoutMs: ctx.config.VOISO_TIMEOUT_MS },
  );
  return { client, cacheKey: `${ctx.config.VOISO_BASE_URL}|${clusterId}|${apiKey}`, provider: 'voiso' };
}

/** What the screens show for a Voiso failure: its own words where it gave some, never a claim that a call started. */
function failure(err: VoisoError): AppError {
  return new AppError(
    'VOISO_FAILED',
    err.kind === 'rejected' ? `Voiso did not start the call: ${err.message}` : err.message,
  );
}

/**
 * Agent statuses are read by every open lead screen; a few seconds' cache spares Voiso one request per screen and
 * refresh. Keyed by the settings, so a new key or cluster is read at once.
 */
const STATUS_TTL_MS = 5000;
let statusCache: { key: string; at: number; agents: VoisoAgent[] } | null = null;

async function agentStatuses(setup: Exclude<Setup, { off: string }>): Promise<VoisoAgent[]> {
  if (statusCache && statusCache.key === setup.cacheKey && Date.now() - statusCache.at < STATUS_TTL_MS)
    return statusCache.agents;
  const agents = await setup.client.agentsStatus();
  statusCache = { key: setup.cacheKey, at: Date.now(), agents };
  return agents;
}

async function emailOf(ctx: Ctx, actor: StaffActor): Promise<string> {
  const [u] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, actor.id));
  return (u?.email ?? '').toLowerCase();
}

/**
 * GET /admin/crm/voiso/agents: Voiso's users and statuses. Sales and retention agents get only their own entry
 * (the chip beside their call buttons); admins and managers the whole contact center.
 */
export async function listCallAgents(ctx: Ctx, actor: StaffActor): Promise<CallAgentsResponse> {
  const setup = await voiso(ctx);
  if ('off' in setup) return { configured: false, message: setup.off, data: [], me: null };
  let agents: VoisoAgent[];
  try {
    agents = await agentStatuses(setup);
  } catch (err) {
    if (err instanceof VoisoError)
      throw new AppError(
        'VOISO_FAILED',
        err.kind === 'rejected' ? `Voiso did not list its agents: ${err.message}` : err.message,
      );
    throw err;
  }
  const email = await emailOf(ctx, actor);
  const me = agents.find((a) => a.email === email) ?? null;
  return { configured: true, message: null, data: isAgent(actor) ? (me ? [me] : []) : agents, me };
}

/** Starts under way, per softphone: a double click must not ring the agent twice. Per instance. */
const starting = new Set<string>();

/**
 * POST /admin/crm/voiso/startCall. With a lead id the number is the lead's own, read only if the caller may see
 * the lead (404 otherwise), so agents who see it masked can still call it. With a phone number, agents may call
 * only a number of one of their leads; admins and managers any number. Agents ring only their own softphone.
 */
export async function startCall(ctx: Ctx, actor: StaffActor, input: StartInput): Promise<{ callId: string | null }> {
  const setup = await voiso(ctx);
  if ('off' in setup) throw new AppError('VOISO_NOT_CONFIGURED', setup.off);
  const own = await emailOf(ctx, actor);
  const agent = input.agentEmail ?? own;
  if (isAgent(actor) && agent !== own)
    throw new AppError('FORBIDDEN', 'You can start calls only on your own softphone.');
  if (!agent) throw fieldError('agentEmail', 'Give the Voiso agent email');

  let lead: { id: number; linkedUserId: number | null } | null = null;
  let number: string | null;
  if (input.leadId !== undefined) {
    const [l] = await ctx.db
      .select({ id: leads.id, linkedUserId: leads.linkedUserId, phone: leads.phone })
      .from(leads)
      .where(and(eq(leads.id, input.leadId), leadScope(actor)));
    if (!l) throw new AppError('LEAD_NOT_FOUND');
    number = dialDigits(l.phone);
    if (!number) throw new AppError('LEAD_NO_PHONE');
    lead = l;
  } else {
    number = dialDigits(input.phone);
    if (!number) throw fieldError('phone', 'Invalid phone number');
    // The lead with this number, so the call lands in its history; the caller's scope decides which leads count.
    const [l] = await ctx.db
      .select({ id: leads.id, linkedUserId: leads.linkedUserId })
      .from(leads)
      .where(
        and(
          leadScope(actor),
          sql`regexp_replace(regexp_replace(coalesce(${leads.phone}, ''), '[^0-9]', '', 'g'), '^00', '') = ${number}`,
        ),
      )
      .orderBy(desc(leads.id))
      .limit(1);
    if (!l && isAgent(actor)) throw new AppError('LEAD_NOT_FOUND');
    lead = l ?? null;
  }

  if (starting.has(agent)) throw new AppError('CALL_BEING_STARTED');
  starting.add(agent);
  const record = async (action: string, after: Record<string, unknown>) => {
    // The call log beside the audit row: who called whom, when, through which telephony, and whether it started.
    await recordCall(ctx.db, {
      leadId: lead?.id ?? null,
      callerId: actor.id,
      agent,
      numberTail: lead ? null : maskPhone(number),
      provider: setup.provider,
      callId: typeof after.call_id === 'string' ? after.call_id : null,
      status: action === 'call' ? 'started' : 'failed',
      reason: typeof after.reason === 'string' ? after.reason : null,
    });
    await writeAudit(ctx.db, {
      actorId: actor.id,
      targetUserId: lead?.linkedUserId ?? null,
      action: lead ? `lead.${action}` : `crm.${action}`,
      ip: actor.ip,
      // A call without a lead keeps only the end of the number; with one, the lead row has it.
      after: lead ? after : { ...after, phone: maskPhone(number) },
      subjectType: lead ? 'lead' : null,
      subjectId: lead?.id ?? null,
    });
  };
  try {
    const { appName } = await getBranding(ctx.db);
    // account_id: Voiso shows the lead id instead of the number in the agent's softphone and its reports.
    const { callId } = await setup.client.startCall({
      agent,
      number,
      accountId: lead ? String(lead.id) : undefined,
      crm: appName.slice(0, 60),
    });
    await record('call', { agent, call_id: callId });
    // The agent is on a call now: the next status read asks the telephony again.
    statusCache = null;
    return { callId };
  } catch (err) {
    if (!(err instanceof VoisoError)) throw err;
    const refused = failure(err);
    await record('call_failed', { agent, reason: refused.message });
    throw refused;
  } finally {
    starting.delete(agent);
  }
}
