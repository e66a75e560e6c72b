import type { Redis } from 'ioredis';
import { memoryCounter, redisCounter, type AttemptCounter } from '../../lib/attempt-counter.ts';
import { AppError } from '../../lib/errors.ts';

const WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords an account may take in the window before it is locked (guessing one person's password). */
export const ACCOUNT_FAILURES = 5;
/**
 * Failures one IP may make across all accounts (spraying many accounts). Higher than the account limit: an office
 * or a mobile carrier shares one address, and one colleague's typos must not lock everyone else out.
 */
export const IP_FAILURES = 50;

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** The outcome of one sign-in attempt, reported once its password has been checked. */
export interface SignInAttempt {
  /** Wrong email or password: the attempt stays counted. */
  failed(): Promise<void>;
  /** Right password: the account's counter starts again and the address's advance count is taken back. */
  succeeded(): Promise<void>;
  /** Ended before any password was checked (captcha, an error): the advance count is taken back. */
  abandoned(): Promise<void>;
}

/**
 * Failed sign-in counters, one per account and one per IP, each with its own threshold over a sliding 15 minutes.
 * An attempt is counted as a failure the moment it starts, before the (slow) password check, so guesses sent in
 * parallel are counted as they arrive rather than after the first of them has been answered; the outcome then
 * keeps or takes back that count. A successful sign-in clears its account's counter; so does a password reset or an
 * admin's unlock. With several instances (Redis) the counts are shared, so the limits hold across all of them.
 */
export class SignInLimits {
  private readonly account: AttemptCounter;
  private readonly ip: AttemptCounter;

  constructor(redis?: { client: Redis; prefix: string } | null) {
    this.account = redis
      ? redisCounter(redis.client, `${redis.prefix}sign-in:account:`, ACCOUNT_FAILURES, WINDOW_MS)
      : memoryCounter(ACCOUNT_FAILURES, WINDOW_MS);
    this.ip = redis
      ? redisCounter(redis.client, `${redis.prefix}sign-in:ip:`, IP_FAILURES, WINDOW_MS)
      : memoryCounter(IP_FAILURES, WINDOW_MS);
  }

  /** Throws 429 when locked; otherwise counts the attempt now and returns how to settle it. */
  async begin(email: string, ip: string): Promise<SignInAttempt> {
    const key = email.toLowerCase();
    const account = await this.account.tryCount(key);
    if (account.waitMs > 0)
      throw new AppError(
        'ACCOUNT_LOCKED',
        `Too many failed sign-ins for this account. Try again in ${minutes(account.waitMs)} minutes, or reset your password.`,
      );
    const address = await this.ip.tryCount(ip);
    if (address.waitMs > 0) {
      await this.account.undo(key, account.token);
      throw new AppError(
        'IP_LOCKED',
        `Too many failed sign-ins from your network. Try again in ${minutes(address.waitMs)} minutes.`,
      );
    }
    let settled = false;
    const settle = (f: () => Promise<unknown>) => async () => {
      if (settled) return;
      settled = true;
      await f();
    };
    return {
      failed: settle(async () => undefined),
      succeeded: settle(() => Promise.all([this.account.reset(key), this.ip.undo(ip, address.token)])),
      abandoned: settle(() => Promise.all([this.account.undo(key, account.token), this.ip.undo(ip, address.token)])),
    };
  }

  /** The account's counter starts again (successful sign-in, password reset, admin unlock). */
  async clearAccount(email: string): Promise<void> {
    await this.account.reset(email.toLowerCase());
  }

  /** Whole minutes until the account may try again; 0 when it is not locked. */
  async accountLockMinutes(email: string): Promise<number> {
    const ms = await this.account.retryAfterMs(email.toLowerCase());
    return ms > 0 ? minutes(ms) : 0;
  }
}
