import { z } from 'zod';

/**
 * Click-to-call through Voiso (back-office spec §2 click-to-call control, §3 Call agent, §7 startCall, §9 toasts).
 * The same schemas validate the server's input and type the screens.
 */

/** The call-agent statuses the spec names; Voiso also reports `dialer` and `postcall` (busy, like a call). */
export const CALL_AGENT_STATUSES = ['offline', 'available', 'unavailable', 'inbound', 'outbound'] as const;

/** Chip colour of a call-agent status (spec §2): offline and unavailable danger, available success, on a call warning. */
export function callAgentStatusColor(status: string): 'red' | 'green' | 'orange' | 'gray' {
  switch (status) {
    case 'offline':
    case 'unavailable':
      return 'red';
    case 'available':
      return 'green';
    case 'inbound':
    case 'outbound':
    case 'dialer':
    case 'postcall':
      return 'orange';
    default:
      return 'gray';
  }
}

/** A Voiso user (spec §3 Call agent): sign-in email, extension, current status (lower case). */
export const CallAgent = z.object({ email: z.string(), ext: z.string().nullable(), status: z.string() });
export type CallAgent = z.infer<typeof CallAgent>;

/**
 * GET /admin/crm/voiso/agents. `configured` false (with the reason in `message`) when Trade APIs holds no usable
 * Voiso cluster id and API key: the call buttons are then off. `me` is the caller's own entry, if Voiso knows them.
 */
export const CallAgentsResponse = z.object({
  configured: z.boolean(),
  message: z.string().nullable(),
  data: z.array(CallAgent),
  me: CallAgent.nullable(),
});
export type CallAgentsResponse = z.infer<typeof CallAgentsResponse>;

const id = z.coerce
  .number({ error: 'Choose a lead' })
  .int()
  .positive({ error: 'Choose a lead' })
  .max(2_147_483_647, { error: 'Choose a lead' });
const phone = z
  .string()
  .trim()
  .max(32)
  .regex(/^\+?[0-9 ()-]{5,}$/, { error: 'Invalid phone number' });
const email = z
  .string()
  .trim()
  .max(255)
  .pipe(z.email({ error: 'Invalid email' }))
  .transform((e) => e.toLowerCase());

/**
 * POST /admin/crm/voiso/startCall: a lead to call (preferred: the server dials the lead's number, so agents who see
 * it masked can still call), or the spec's phone. agentEmail is the Voiso user whose softphone rings; the caller's
 * own email when left out.
 */
export const StartCallRequest = z
  .object({ leadId: id.optional(), phone: phone.optional(), agentEmail: email.optional() })
  .refine((b) => (b.leadId === undefined) !== (b.phone === undefined), {
    error: 'Give either a lead or a phone number',
    path: ['leadId'],
  });
export type StartCallRequest = z.input<typeof StartCallRequest>;

export const StartCallResponse = z.object({ message: z.string(), call_id: z.string().nullable() });
export type StartCallResponse = z.infer<typeof StartCallResponse>;
