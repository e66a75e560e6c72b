import { AttemptLimiter } from '../../lib/attempt-limiter.ts';
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
  failed(): void;
  /** Right password: the account's counter starts again and the address's advance count is taken back. */
  succeeded(): void;
  /** Ended before any password was checked (captcha, an error): the advance count is taken back. */
  abandoned(): void;
}

/**
 * Failed sign-in counters, one per account and one per IP, each with its own threshold over a sliding 15 minutes.
 * An attempt is counted as a failure the moment it starts, before the (slow) password check, so guesses sent in
 * parallel are counted as they arrive rather than after the first of them has been answered; the outcome then
 * keeps or takes back that count. A successful sign-in clears its account's counter; so does a password reset or an
 * admin's unlock.
 */
export class SignInLimits {
  private readonly account = new AttemptLimiter(ACCOUNT_FAILURES, WINDOW_MS);
  private readonly ip = new AttemptLimiter(IP_FAILURES, WINDOW_MS);

  /** Throws 429 with the wait in minutes when the account or the address is locked. */
  private assertAllowed(email: string, ip: string): void {
    const accountWait = this.account.retryAfterMs(email.toLowerCase());
    if (accountWait > 0)
      throw new AppError(
        'ACCOUNT_LOCKED',
        `Too many failed sign-ins for this account. Try again in ${minutes(accountWait)} minutes, or reset your password.`,
      );
    const ipWait = this.ip.retryAfterMs(ip);
    if (ipWait > 0)
      throw new AppError('IP_LOCKED', `Too many failed sign-ins from your network. Try again in ${minutes(ipWait)} minutes.`);
  }

  /** Throws 429 when locked; otherwise counts the attempt now and returns how to settle it. */
  begin(email: string, ip: string): SignInAttempt {
    this.assertAllowed(email, ip);
    const key = email.toLowerCase();
    this.account.fail(key);
    this.ip.fail(ip);
    let settled = false;
    const settle = (f: () => void) => () => {
      if (settled) return;
      settled = true;
      f();
    };
    return {
      failed: settle(() => undefined),
      succeeded: settle(() => {
        this.account.reset(key);
        this.ip.undo(ip);
      }),
      abandoned: settle(() => {
        this.account.undo(key);
        this.ip.undo(ip);
      }),
    };
  }

  /** The account's counter starts again (successful sign-in, password reset, admin unlock). */
  clearAccount(email: string): void {
    this.account.reset(email.toLowerCase());
  }

  /** Whole minutes until the account may try again; 0 when it is not locked. */
  accountLockMinutes(email: string): number {
    const ms = this.account.retryAfterMs(email.toLowerCase());
    return ms > 0 ? minutes(ms) : 0;
  }
}
