import { timingSafeEqual } from 'node:crypto';
import { Decimal } from '@platform/domain';
import {
  CallbackRejected,
  ProviderError,
  type AdapterOptions,
  type GatewayKeys,
  type IncomingCallback,
} from './types.ts';

/**
 * What every provider adapter shares: calling a provider's API with a timeout and turning its failures into short
 * ProviderErrors that never carry a key, constant-time signature comparison, timestamp tolerance, callback field
 * access and decimal amounts (never floats).
 */

/** A signed callback older (or further in the future) than this is refused. */
export const TOLERANCE_MS = 5 * 60 * 1000;
/** No provider call may hang a deposit or a callback for longer than this. */
export const REQUEST_TIMEOUT_MS = 15_000;

export type KeyName = keyof GatewayKeys;

/** The named keys, trimmed, or an error naming the missing field (never its value). */
export function requireKeys<K extends KeyName>(
  keys: GatewayKeys,
  names: readonly K[],
  labels: Record<K, string>,
  fail: (message: string) => Error,
): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) {
    const v = keys[name]?.trim();
    if (!v) throw fail(`${labels[name]} is not set`);
    out[name] = v;
  }
  return out;
}

/** Removes every key value from a provider's message, so a key echoed back never reaches a log or a screen. */
export function scrub(message: string, keys: GatewayKeys): string {
  let out = message;
  for (const v of Object.values(keys)) if (v && v.length >= 4) out = out.split(v).join('***');
  return out.replace(/\s+/g, ' ').trim().slice(0, 200);
}

export interface ProviderResponse {
  status: number;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** One HTTP call to a provider: opts.fetch (or the global fetch), a 15 s timeout, network failures as ProviderError. */
export async function callProvider(
  provider: string,
  opts: AdapterOptions,
  url: string,
  init: RequestInit,
): Promise<ProviderResponse> {
  const doFetch = opts.fetch ?? globalThis.fetch;
  let res: Response;
  try {
    res = await doFetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new ProviderError(`${provider} ${timedOut ? 'did not answer in time' : 'could not be reached'}`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new ProviderError(`${provider} answer could not be read`);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** A plain object's property, or undefined. */
export function field(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

/**
 * A non-negative decimal amount as a provider sent it (a decimal string, or a JSON number whose shortest text is the
 * amount the provider wrote), normalised without going through float arithmetic; null when it is not one.
 */
export function decimalString(v: unknown): string | null {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
  if (s === null || !/^\d{1,15}(\.\d{1,18})?$/.test(s)) return null;
  return new Decimal(s).toFixed();
}

/** Minor units (cents) of a decimal amount for a currency with `decimals` decimals; throws when it does not fit. */
export function toMinorUnits(amount: string, decimals: number, fail: (message: string) => Error): string {
  const d = new Decimal(amount);
  const minor = d.times(new Decimal(10).pow(decimals));
  if (!minor.isInteger() || minor.lte(0)) throw fail(`amount ${amount} cannot be expressed in this currency's units`);
  return minor.toFixed(0);
}

/** A decimal string from minor units. */
export function fromMinorUnits(minor: unknown, decimals: number): string | null {
  const s =
    typeof minor === 'number' && Number.isSafeInteger(minor)
      ? String(minor)
      : typeof minor === 'string' && /^\d+$/.test(minor)
        ? minor
        : null;
  if (s === null) return null;
  return new Decimal(s).div(new Decimal(10).pow(decimals)).toFixed(decimals);
}

/** Constant-time comparison of two strings (hex digests, base64, uppercase hashes); false on any length difference. */
export function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length || a.length === 0) {
    // Still spend a comparison so a short or empty guess answers in the same time as a wrong one.
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** A header of the callback, whatever the case it arrived in. */
export function header(cb: IncomingCallback, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(cb.headers)) if (k.toLowerCase() === wanted && typeof v === 'string') return v;
  return undefined;
}

/** `t=…,v1=…,v1=…` style header: every value of each key. */
export function parseSignedHeader(value: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (value ?? '').split(',')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

/** A Unix timestamp in seconds within the tolerance of now; CallbackRejected otherwise. */
export function checkTimestamp(seconds: string | undefined, now: number): number {
  if (!seconds || !/^\d{1,12}$/.test(seconds)) throw new CallbackRejected('missing timestamp');
  const t = Number(seconds);
  if (Math.abs(now - t * 1000) > TOLERANCE_MS) throw new CallbackRejected('stale timestamp');
  return t;
}

/** The raw body as JSON, or CallbackRejected. */
export function jsonBody(cb: IncomingCallback): unknown {
  try {
    return JSON.parse(cb.rawBody.toString('utf8'));
  } catch {
    throw new CallbackRejected('malformed body');
  }
}

/**
 * The callback's flat fields: the raw body as a form or JSON object (whichever it is), then the query string.
 * Read from the raw bytes, so what is checked is exactly what was signed.
 */
export function callbackFields(cb: IncomingCallback): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(cb.query)) if (typeof v === 'string') out[k] = v;
  const raw = cb.rawBody.toString('utf8').trim();
  if (!raw) return out;
  if (raw.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new CallbackRejected('malformed body');
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
        const s = str(v);
        if (s !== undefined) out[k] = s;
      }
    }
    return out;
  }
  for (const [k, v] of new URLSearchParams(raw)) out[k] = v;
  return out;
}

/** Base URL without a trailing slash. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');
