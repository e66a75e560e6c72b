import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { Badge, Center, Group, Loader, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, type InstrumentDto, type Side } from '@platform/domain';
import { ApiError } from '../../api/client.ts';
import { useCurrentUser } from '../../api/hooks.ts';
import { toastError } from '../../ui/toast.ts';
import { useLotState, useRate } from './api.ts';
import { commissionTermsOf, formatPrice, pairLabel } from './figures.ts';
import { OrderForm } from './OrderForm.tsx';
import type { OrderChoice } from './orderKinds.ts';
import { useQuote } from './quotes.ts';
import { useLivePositions } from './useLivePositions.ts';

export interface OrderDialogProps {
  /** The side the dialog opens with (its BUY or SELL button); a pending kind chosen inside may change it. */
  side: Side;
  instrument: InstrumentDto;
  onClose: () => void;
}

/**
 * Buy order and Sell order dialogs (market by default, or a pending order of the type chosen). Opening loads the conversion rate of the instrument's quote currency and
 * the lot mode of its category, with a spinner meanwhile (spec §4). A failure says what is missing: the server's
 * message, else which conversion rate (or the lot sizes) could not be loaded, never a bare "Something went wrong".
 */
export function OrderDialog({ side: initialSide, instrument, onClose }: OrderDialogProps) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<OrderChoice>({ side: initialSide, kind: 'market' });
  const side = choice.side;
  const { data: current } = useCurrentUser();
  const rate = useRate(instrument.quote, true);
  const lot = useLotState(instrument.category, true, instrument.name);
  const quote = useQuote(instrument.name);
  // Free margin counts the live P/L of the open positions.
  const { totalProfitLoss } = useLivePositions();
  const wallet = current?.activeBalance ?? null;
  const plan = current?.user.pricingTable ?? null;
  // A plan's commission is in US dollars: its rate is needed unless the wallet or the quote currency is USD.
  const charged = commissionTermsOf(plan, instrument.category) !== null;
  const usdRate = useRate('USD', charged && !!wallet && wallet.currency !== 'USD' && instrument.quote !== 'USD');
  const usdConversion = !charged
    ? null
    : wallet?.currency === 'USD'
      ? '1'
      : instrument.quote === 'USD'
        ? (rate.data?.rate ?? null)
        : (usdRate.data?.rate ?? null);
  const failed = rate.isError || lot.isError;
  const failure = rate.isError
    ? (serverMessage(rate.error) ??
      t('No conversion rate from {{quote}} to {{wallet}} is available right now. Please try again in a moment.', {
        quote: instrument.quote,
        wallet: wallet?.currency ?? t('your wallet currency'),
      }))
    : lot.isError
      ? (serverMessage(lot.error) ?? t('The order sizes could not be loaded. Please try again in a moment.'))
      : null;
  useEffect(() => {
    if (failure) toastError(failure);
  }, [failure]);

  const price = side === 'buy' ? quote?.ask : quote?.bid;
  const title = (
    <Group gap="xs">
      <Text fw={700}>{side === 'buy' ? t('Buy Order') : t('Sell Order')}</Text>
      <Badge variant="light" color={side === 'buy' ? 'teal' : 'red'}>
        {pairLabel(instrument.base, instrument.quote)}
      </Badge>
      <Text size="sm" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatPrice(price, instrument.digits)}
      </Text>
    </Group>
  );

  let body: ReactNode;
  if (failed) body = <Text c="red">{failure}</Text>;
  else if (!current || rate.isPending || lot.isPending)
    body = (
      <Center py="xl">
        <Loader aria-label={t('Loading...')} />
      </Center>
    );
  else if (!wallet) body = <Text c="dimmed">{t('Please choose a wallet first.')}</Text>;
  else if (!quote) body = <Text c="dimmed">{t('No price is available for this instrument right now.')}</Text>;
  else
    body = (
      <OrderForm
        choice={choice}
        onChoose={setChoice}
        instrument={instrument}
        prices={{ bid: quote.bid, ask: quote.ask }}
        conversionRate={rate.data.rate}
        usdConversion={usdConversion}
        lot={lot.data}
        wallet={wallet}
        plan={plan}
        openProfitLoss={totalProfitLoss.toString()}
        onDone={onClose}
      />
    );

  return (
    <Modal opened onClose={onClose} title={title} centered size="md">
      {body}
    </Modal>
  );
}

/** The server's own explanation of a refusal, if it gave one. */
function serverMessage(err: unknown): string | null {
  return err instanceof ApiError && err.message && err.message !== GENERIC_ERROR ? err.message : null;
}
