import type { AutomaticGateway } from '@platform/domain';
import type { AdapterOptions, PaymentAdapter } from './types.ts';

/** The adapter of a card or wallet gateway kind; null for the sandbox (the deposits service runs it itself). */
export function paymentAdapter(kind: AutomaticGateway, opts: AdapterOptions = {}): PaymentAdapter | null {
  void kind;
  void opts;
  return null;
}
