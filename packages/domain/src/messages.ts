/**
 * One registry of the server's error codes and their messages. The server throws AppError(code);
 * the web app shows `message` from the response, falling back to the spec's generic texts.
 */
export const ERRORS = {
  UNAUTHENTICATED: { status: 401, message: 'Please sign in to continue.' },
  REAUTH_REQUIRED: { status: 401, message: 'Please enter your password again to continue.' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found' },
  FORBIDDEN: { status: 403, message: 'You are not allowed to do this.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  VALIDATION: { status: 400, message: 'Please check the highlighted fields.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid Credentials' },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    message: 'Please verify your email address first. We sent you a link when you signed up.',
  },
  ACCOUNT_INACTIVE: { status: 403, message: 'Your account is inactive. Please contact support.' },
  IP_NOT_ALLOWED: { status: 403, message: 'Access from your IP address is not allowed for this account.' },
  ACCOUNT_LOCKED: {
    status: 429,
    message: 'Too many failed sign-ins for this account. Try again later, or reset your password.',
  },
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
  TWO_FACTOR_CODE_INVALID: {
    status: 422,
    message: 'This code is not valid. Check your authenticator app and try again.',
  },
  TWO_FACTOR_CHALLENGE_INVALID: { status: 422, message: 'Your sign-in has expired. Please sign in again.' },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: 'Two-factor sign-in is already on for your account.' },
  TWO_FACTOR_NOT_SET_UP: { status: 409, message: 'Start the two-factor set-up first.' },
  TWO_FACTOR_NOT_ENABLED: { status: 409, message: 'Two-factor sign-in is not on for your account.' },
  TWO_FACTOR_REQUIRED: {
    status: 403,
    message: 'Two-factor sign-in is required for your role and cannot be turned off.',
  },
  TWO_FACTOR_ADMIN_FIRST: {
    status: 409,
    message: 'Turn on two-factor sign-in for your own account before requiring it for admins.',
  },
  LAST_ADMIN: { status: 409, message: 'At least one active admin must remain.' },
  SELF_LOCKOUT: { status: 409, message: 'You cannot deactivate your own account or change your own role.' },
  CUSTOMER_INACTIVE: { status: 422, message: 'This customer account is inactive.' },
  LANGUAGE_NOT_FOUND: { status: 404, message: 'Language not found.' },
  MAIL_NOT_FOUND: { status: 404, message: 'Mail not found.' },
  INSTRUMENT_NOT_FOUND: { status: 404, message: 'Instrument not found.' },
  ORDER_NOT_FOUND: { status: 404, message: 'Order not found.' },
  ORDER_CLOSED: { status: 409, message: 'This order is already closed.' },
  ORDER_OPEN_FIELDS: {
    status: 400,
    message:
      'While the order is open only take profit, stop loss and open time can change; the close rate needs a closed order.',
  },
  ORDER_OPEN_DELETE: {
    status: 409,
    message: 'Close the order first: an open position is voided only once its money is settled.',
  },
  ORDER_REVERSAL_FUNDS: {
    status: 409,
    message: 'The wallet does not hold enough free funds to take this amount back. Adjust the balance first.',
  },
  NETTING_SAME_SIDE: {
    status: 422,
    message:
      'This account nets positions: it already holds a position on this instrument in the same direction. Trade the other way to reduce, close or reverse it.',
  },
  PENDING_NOT_FOUND: { status: 404, message: 'Pending order not found.' },
  PENDING_NOT_OPEN: { status: 409, message: 'This order is no longer pending.' },
  TOO_MANY_PENDING: { status: 422, message: 'You have reached the maximum number of pending orders on this wallet.' },
  DRAWING_NOT_FOUND: { status: 404, message: 'Drawing not found.' },
  TOO_MANY_DRAWINGS: {
    status: 422,
    message: 'This chart holds the most drawings it can keep. Delete one to draw another.',
  },
  OCO_ALREADY_LINKED: { status: 409, message: 'One of these orders is already linked to another order.' },
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
  INSTRUMENT_HAS_OPEN_POSITIONS: {
    status: 409,
    message: 'This instrument has open positions. Close them before deleting it.',
  },
  INSTRUMENT_HAS_HISTORY: {
    status: 409,
    message: 'This instrument has trade history and cannot be deleted. Make it not tradable instead.',
  },
  INSTRUMENT_IN_USE: {
    status: 409,
    message:
      'This instrument has open positions: its name, base, quote and category cannot change until they are closed.',
  },
  KYC_REQUIRED_DEPOSIT: { status: 403, message: 'Please verify KYC to enable deposit' },
  KYC_REQUIRED_WITHDRAW: { status: 403, message: 'Please verify KYC to enable withdraw' },
  UNKNOWN_GATEWAY: { status: 400, message: 'Unknown payment method.' },
  GATEWAY_UNAVAILABLE: { status: 422, message: 'This payment method is not available right now.' },
  EXTERNAL_PAYMENT: { status: 422, message: 'This payment option opens its own page; no deposit is made here.' },
  REAL_WALLET_ONLY: {
    status: 422,
    message: 'Deposits and withdrawals use real wallets only; demo wallets hold demo money.',
  },
  DEPOSIT_NOT_FOUND: { status: 404, message: 'Deposit not found.' },
  WITHDRAWAL_NOT_FOUND: { status: 404, message: 'Withdrawal not found.' },
  ALREADY_REVIEWED: { status: 409, message: 'This request has already been reviewed.' },
  NOT_BANK_DEPOSIT: { status: 422, message: 'Transfer details can only be sent for a pending bank deposit.' },
  DEPOSIT_AWAITS_PROOF: {
    status: 409,
    message:
      'This bank deposit is still waiting for its transfer details and proof. Approve it only with an override and a reason.',
  },
  INSUFFICIENT_FUNDS: {
    status: 422,
    message:
      'Insufficient free funds: the amount plus fee is more than the wallet can pay while covering its open positions.',
  },
  PROVIDER_UNAVAILABLE: { status: 502, message: 'The payment provider could not be reached. Please try again later.' },
  PAYMENT_NOT_FOUND: { status: 404, message: 'Payment not found.' },
  CALLBACK_REJECTED: { status: 400, message: 'Callback rejected.' },
  NOT_ENOUGH_BALANCE: { status: 422, message: 'Not enough balance' },
  PLAN_NOT_FOUND: { status: 404, message: 'Plan not found.' },
  PLAN_IN_USE: { status: 409, message: 'Customers are subscribed to this plan.' },
  ALREADY_SUBSCRIBED: { status: 409, message: 'You are already subscribed to this plan.' },
  PLAN_PRICE_CHANGED: {
    status: 409,
    message: 'The price in your wallet currency has changed. Please check the new price and confirm again.',
  },
  PLANS_OFF: { status: 422, message: 'Pricing plans are switched off.' },
  KYC_NOT_FOUND: { status: 404, message: 'KYC document not found.' },
  KYC_IN_REVIEW: { status: 409, message: 'Your documents are being reviewed. You can resubmit if they are declined.' },
  KYC_ALREADY_APPROVED: { status: 409, message: 'Your identity is already verified.' },
  IMPERSONATION_FORBIDDEN: { status: 403, message: 'Not available while signed in as this customer.' },
  EXTERNAL_PAYMENT_NOT_FOUND: { status: 404, message: 'External payment not found.' },
  CUSTOMER_NOT_FOUND: { status: 404, message: 'Customer not found.' },
  CUSTOMER_HAS_OPEN_POSITIONS: {
    status: 409,
    message: 'This customer has open positions. Close them before deleting the customer.',
  },
  ADJUSTMENT_NOT_COVERED: {
    status: 400,
    message: 'The wallet cannot go below zero or below the margin its open positions hold.',
  },
  MANAGER_NOT_FOUND: { status: 400, message: 'Choose an active manager.' },
  LEAD_NOT_FOUND: { status: 404, message: 'Lead not found.' },
  LEAD_MOVE_NOT_ALLOWED: { status: 409, message: 'Some of these leads cannot be moved there.' },
  LEAD_ALREADY_CONVERTED: { status: 409, message: 'This lead is already a customer.' },
  LEAD_NEEDS_EMAIL: { status: 400, message: 'The lead needs an email address to become a customer.' },
  ASSIGNEE_NOT_FOUND: { status: 400, message: 'Choose an active staff member of the right role.' },
  API_KEY_MISSING: { status: 401, message: 'Send your API key in the X-API-Key header.' },
  API_KEY_INVALID: { status: 401, message: 'This API key is not valid. Generate a new key on the API Key page.' },
  API_KEY_RATE_LIMITED: {
    status: 429,
    message: 'Too many requests with this API key. Please wait a minute and try again.',
  },
  API_KEY_GUESSING: {
    status: 429,
    message: 'Too many requests with a wrong API key from your network. Please try again later.',
  },
  SALES_STATUS_NOT_FOUND: { status: 404, message: 'Sales status not found.' },
  SALES_STATUS_TAKEN: { status: 409, message: 'This sales status already exists.' },
  SALES_STATUS_IN_USE: { status: 409, message: 'Leads have this status. Give them another status first.' },
  VOISO_NOT_CONFIGURED: {
    status: 409,
    message: 'Click-to-call is off: add the Voiso cluster id and API key in Trade APIs.',
  },
  VOISO_FAILED: { status: 502, message: 'Voiso did not start the call. Please try again.' },
  CALL_BEING_STARTED: { status: 409, message: 'A call is already being started on this softphone. Wait a moment.' },
  LEAD_IMPORT_NOT_FOUND: { status: 404, message: 'Import not found.' },
  LEAD_NO_PHONE: { status: 400, message: 'This lead has no phone number that can be dialled.' },
  TASK_NOT_FOUND: { status: 404, message: 'Task not found.' },
  SALES_STATUS_DEFAULT: {
    status: 409,
    message: 'One status must stay the default: make another status the default first.',
  },
  TEAM_NOT_FOUND: { status: 404, message: 'Team not found.' },
  TEAM_CODE_TAKEN: { status: 409, message: 'Another team has this code.' },
  TEAM_MEMBER_INVALID: { status: 400, message: 'Team members must be active agents or retention agents.' },
  PROMO_CODE_UNAVAILABLE: { status: 503, message: 'No promo code could be generated. Please try again.' },
  FILE_STORAGE_UNAVAILABLE: {
    status: 503,
    message: 'File storage cannot be reached right now. Please try again in a few minutes.',
  },
  FILE_STORAGE_REFUSED: {
    status: 502,
    message:
      'File storage refused the request (its access settings were not accepted). Please try again later or contact support.',
  },
  APPROVAL_NOT_FOUND: { status: 404, message: 'Approval request not found.' },
  APPROVAL_OWN_REQUEST: {
    status: 403,
    message: 'You cannot approve or reject your own request: a second staff member must decide it.',
  },
  APPROVAL_DECIDED: { status: 409, message: 'This request has already been decided.' },
  APPROVAL_ALREADY_PENDING: { status: 409, message: 'This action is already waiting for a second approval.' },
  INTERNAL: { status: 500, message: 'Something went wrong' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** Fallback texts the UI shows when a response has no message (client-area spec §8). */
export const GENERIC_ERROR = 'Something went wrong';
export const LOGIN_FALLBACK_ERROR = 'Invalid Credentials';
