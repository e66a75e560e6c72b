import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  AffiliateApiKeyGenerated,
  AffiliateApiKeyResponse,
  ErrorResponse,
  LEAD_INTAKE_PATH,
  LEAD_INTAKE_PER_MINUTE,
  LEAD_INTAKE_WRONG_KEYS,
  LeadIntakeRequest,
  LeadIntakeResponse,
} from '@platform/domain';
import { memoryCounter, redisCounter } from '../../lib/attempt-counter.ts';
import { sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { RoutesPlugin } from '../../lib/http.ts';
import { staffOf } from '../../lib/staff-scope.ts';
import { getBranding } from '../settings/service.ts';
import { intakeDocument } from './docs.ts';
import { intakeLead } from './intake.ts';
import { generateApiKey, getApiKey, resolveApiKey, type IntakeSource } from './keys.ts';

/** The OpenAPI security scheme of the intake route (declared in app.ts). */
export const API_KEY_SCHEME = 'affiliateApiKey';

const tags = ['affiliate'];
const WRONG_KEY_WINDOW_MS = 15 * 60 * 1000;
/** Longer than any key we issue; anything longer is refused without hashing it. */
const MAX_KEY_LENGTH = 200;

/** The key a request presents in X-API-Key ('' when none, or when the header is repeated). */
function presentedKey(req: FastifyRequest): string {
  const v = req.headers['x-api-key'];
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * The affiliate's API Key page (back-office §2, §7 POST /affiliate/api) and the lead-intake API its key opens.
 * The intake route is public and sessionless (no cookie is read): the caller is whoever owns the key, checked before
 * the body is read, after the per-key request limit.
 */
export const affiliateRoutes: RoutesPlugin = async (app) => {
  const { db, config } = app.ctx;
  const redis = app.ctx.cluster.bus.redis;
  // Wrong keys per network address: stops guessing (a site webhook key is chosen by a person and may be short) and
  // floods of made-up keys, each of which would otherwise get a fresh per-key allowance. Shared through Redis.
  const wrongKeys = redis
    ? redisCounter(redis, `${config.CLUSTER_NAME}:intake-wrong-key:`, LEAD_INTAKE_WRONG_KEYS, WRONG_KEY_WINDOW_MS)
    : memoryCounter(LEAD_INTAKE_WRONG_KEYS, WRONG_KEY_WINDOW_MS);
  const sources = new WeakMap<FastifyRequest, IntakeSource>();

  // Counted per key (its hash, never the key, names the bucket), per address for requests without one.
  const perKeyLimit = app.rateLimit({
    max: LEAD_INTAKE_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (req) => {
      const key = presentedKey(req);
      return key ? `intake-key:${sha256(key.slice(0, MAX_KEY_LENGTH))}` : `intake-ip:${req.ip}`;
    },
    errorResponseBuilder: (_req, c) =>
      new AppError(
        'API_KEY_RATE_LIMITED',
        `Too many requests with this API key (at most ${c.max} a minute). Try again in ${c.after}.`,
      ),
  }) as unknown as onRequestAsyncHookHandler;

  const checkKey: onRequestAsyncHookHandler = async (req) => {
    const key = presentedKey(req);
    if (!key) throw new AppError('API_KEY_MISSING');
    const waitMs = await wrongKeys.retryAfterMs(req.ip);
    if (waitMs > 0)
      throw new AppError(
        'API_KEY_GUESSING',
        `Too many requests with a wrong API key from your network. Try again in ${Math.ceil(waitMs / 60_000)} minutes.`,
      );
    const source = key.length <= MAX_KEY_LENGTH ? await resolveApiKey(db, key) : null;
    if (!source) {
      await wrongKeys.tryCount(req.ip);
      throw new AppError('API_KEY_INVALID');
    }
    sources.set(req, source);
  };

  app.post(
    LEAD_INTAKE_PATH,
    {
      config: { access: 'public', sessionless: true },
      bodyLimit: 64 * 1024,
      onRequest: [perKeyLimit, checkKey],
      schema: {
        tags,
        summary: 'Post a lead with an API key',
        description:
          'One lead, owned by the affiliate whose key is sent in X-API-Key (or, with the site leads webhook key, a live lead with no ' +
          'affiliate). 201 with the new id; 200 with the existing id when the same email was already received from the same owner. ' +
          `At most ${LEAD_INTAKE_PER_MINUTE} requests a minute per key.`,
        security: [{ [API_KEY_SCHEME]: [] }],
        body: LeadIntakeRequest,
        response: {
          200: LeadIntakeResponse,
          201: LeadIntakeResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const source = sources.get(req);
      if (!source) throw new AppError('API_KEY_MISSING');
      const { id, created } = await intakeLead(db, source, req.body, req.ip);
      return reply
        .status(created ? 201 : 200)
        .send({ message: created ? 'Lead received' : 'Lead already received', id, created });
    },
  );

  app.get(
    '/affiliate/api',
    { config: { access: [4] }, schema: { tags, response: { 200: AffiliateApiKeyResponse } } },
    async (req) => getApiKey(db, staffOf(req).id),
  );

  app.post(
    '/affiliate/api',
    { config: { access: [4] }, schema: { tags, response: { 201: AffiliateApiKeyGenerated } } },
    async (req, reply) => reply.status(201).send(await generateApiKey(db, staffOf(req))),
  );

  app.get(
    '/affiliate/api/documentation',
    {
      config: { access: [4] },
      schema: { tags, summary: 'The lead-intake API as a Markdown document', response: { 200: z.string() } },
    },
    async (_req, reply) => {
      const { appName } = await getBranding(db);
      return reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', 'attachment; filename="lead-intake-api.md"')
        .send(intakeDocument(appName, config.appUrl));
    },
  );
};
