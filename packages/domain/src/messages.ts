/**
 * One registry of the server's error codes and their messages. The server throws AppError(code);
 * the web app shows `message` from the response, falling back to the spec's generic texts.
 */
export const ERRORS = {
  UNAUTHENTICATED: { status: 401, message: 'Please sign in to continue.' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  VALIDATION: { status: 400, message: 'Please check the highlighted fields.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid Credentials' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Please verify your email address first. We sent you a link when you signed up.' },
  ACCOUNT_INACTIVE: { status: 403, message: 'Your account is inactive. Please contact support.' },
  IP_NOT_ALLOWED: { status: 403, message: 'Access from your IP address is not allowed for this account.' },
  ACCOUNT_LOCKED: { status: 429, message: 'Too many failed sign-ins for this account. Try again later, or reset your password.' },
  IP_LOCKED: { status: 429, message: 'Too many failed sign-ins from your network. Please try again later.' },
  CAPTCHA_FAILED: { status: 422, message: 'Human verification failed. Please try again.' },
  CAPTCHA_UNAVAILABLE: { status: 503, message: 'Human verification is unavailable right now. Please try again later.' },
  EMAIL_TAKEN: { status: 409, message: 'An account with this email already exists.' },
  TOKEN_INVALID: { status: 422, message: 'This link is invalid or has expired. Please request a new one.' },
  WRONG_PASSWORD: { status: 422, message: 'Current password is incorrect.' },
  CSRF: { status: 403, message: 'Request blocked: it did not come from this site.' },
  WALLET_NOT_FOUND: { status: 404, message: 'Wallet not found.' },
  NOT_IMPERSONATING: { status: 409, message: 'There is no admin session to return to.' },
  CANNOT_DELETE_SELF: { status: 409, message: 'You cannot delete your own account.' },
  INVALID_ROLE: { status: 422, message: 'This role cannot be managed here.' },
  CONFLICT: { status: 409, message: 'This change conflicts with the current state.' },
  USER_NOT_FOUND: { status: 404, message: 'User not found.' },
  LAST_ADMIN: { status: 409, message: 'At least one active admin must remain.' },
  SELF_LOCKOUT: { status: 409, message: 'You cannot deactivate your own account or change your own role.' },
  CUSTOMER_INACTIVE: { status: 422, message: 'This customer account is inactive.' },
  LANGUAGE_NOT_FOUND: { status: 404, message: 'Language not found.' },
  MAIL_NOT_FOUND: { status: 404, message: 'Mail not found.' },
  INSTRUMENT_NOT_FOUND: { status: 404, message: 'Instrument not found.' },
  ORDER_NOT_FOUND: { status: 404, message: 'Order not found.' },
  ORDER_CLOSED: { status: 409, message: 'This order is already closed.' },
  MARKET_CLOSED: { status: 422, message: 'Market is closed for this instrument.' },
  NOT_TRADABLE: { status: 422, message: 'This instrument is not tradable.' },
  KYC_REQUIRED_TRADE: { status: 403, message: 'Please verify KYC to enable trading' },
  AMOUNT_NOT_POSITIVE: { status: 422, message: 'Amount must be greater than 0' },
  INSUFFICIENT_BALANCE: { status: 422, message: 'Insufficient Balance!' },
  INSUFFICIENT_FREE_MARGIN: { status: 422, message: 'Insufficient Free Margin!' },
  INVALID_TAKE_PROFIT: { status: 422, message: 'Take profit is outside the allowed range.' },
  INVALID_STOP_LOSS: { status: 422, message: 'Stop loss is outside the allowed range.' },
  NO_PRICE: { status: 503, message: 'No price is available for this instrument right now. Please try again.' },
  UNKNOWN_CURRENCY: { status: 400, message: 'Unknown currency.' },
  RATE_UNAVAILABLE: { status: 503, message: 'No conversion rate is available for this currency right now.' },
  NO_ACTIVE_WALLET: { status: 422, message: 'Please choose a wallet first.' },
  TOO_MANY_POSITIONS: { status: 422, message: 'You have reached the maximum number of open positions on this wallet.' },
  INVALID_DATE_RANGE: { status: 400, message: 'The start date must not be after the end date.' },
  INSTRUMENT_NAME_TAKEN: { status: 409, message: 'An instrument with this name already exists.' },
  INSTRUMENT_HAS_OPEN_POSITIONS: { status: 409, message: 'This instrument has open positions. Close them before deleting it.' },
  INSTRUMENT_HAS_HISTORY: { status: 409, message: 'This instrument has trade history and cannot be deleted. Make it not tradable instead.' },
  INSTRUMENT_IN_USE: { status: 409, message: 'This instrument has open positions: its name, base, quote and category cannot change until they are closed.' },
  INTERNAL: { status: 500, message: 'Something went wrong' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** Fallback texts the UI shows when a response has no message (client-area spec §8). */
export const GENERIC_ERROR = 'Something went wrong';
export const LOGIN_FALLBACK_ERROR = 'Invalid Credentials';
