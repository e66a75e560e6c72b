import { useEffect, useRef, useState } from 'react';
import { Button, Center, Image, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, formatMoney, type PaymentResultResponse } from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';
import { useBranding } from '../../../api/hooks.ts';
import { toastError } from '../../../ui/toast.ts';

const POLL_MS = 2000;
const POLL_FOR_MS = 60_000;

function Waiting({ text, failed }: { text: string; failed?: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        {failed ? <Text c="red">{failed}</Text> : <Loader />}
        <Text c="dimmed">{text}</Text>
        {failed && <Button onClick={() => void navigate('/deposits')}>{t('Back to deposits')}</Button>}
      </Stack>
    </Center>
  );
}

/**
 * /payments/return/{tx_ref}: the provider sent the buyer back. The deposit's state is asked for (the provider's own
 * return data go along, for providers that are verified on return) until it is decided or a minute has passed; then
 * the browser goes to the deposit result.
 */
export function PaymentReturnPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ref = useParams().txRef ?? '';
  const [params] = useSearchParams();
  const [failed, setFailed] = useState<string | null>(null);
  const started = useRef(Date.now());
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const query = Object.fromEntries(params.entries());
    const check = async () => {
      try {
        const result = await apiGet<PaymentResultResponse>(`/payments/return/${ref}`, query);
        if (stop) return;
        if (result.status !== 'pending' || Date.now() - started.current > POLL_FOR_MS)
          return void navigate(result.redirect, { replace: true });
        timer = setTimeout(() => void check(), POLL_MS);
      } catch (err) {
        if (!stop) setFailed(errorMessage(err, t(GENERIC_ERROR)));
      }
    };
    void check();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [ref, params, navigate, t]);
  return <Waiting text={t('Waiting for the payment provider to confirm your payment...')} failed={failed} />;
}

/** /payments/paypal/capture/{orderID}: the approved PayPal order is captured on the server, then the result. */
export function PaypalCapturePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orderId = useParams().orderID ?? '';
  const [failed, setFailed] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    apiPost<PaymentResultResponse>(`/payments/paypal/capture/${encodeURIComponent(orderId)}`)
      .then((result) => navigate(result.redirect, { replace: true }))
      .catch((err: unknown) => setFailed(errorMessage(err, t(GENERIC_ERROR))));
  }, [orderId, navigate, t]);
  return <Waiting text={t('Confirming your PayPal payment...')} failed={failed} />;
}

/** What POST /payments/paypal/{tx_ref} may carry besides the order id: PayPal's approval address. */
type PaypalOrder = { id: string; approveUrl?: string | null; links?: Array<{ rel: string; href: string }> };

/** PayPal's approval address of an order, when the server sent one (as `approveUrl` or in PayPal's own `links`). */
export function approvalLink(order: PaypalOrder): string | null {
  const link =
    order.approveUrl ?? order.links?.find((l) => l.rel === 'approve' || l.rel === 'payer-action')?.href ?? null;
  return link && /^https:\/\//.test(link) ? link : null;
}

/**
 * /payments/paypal/{tx_ref}: logo, "Deposit {amount} {currency}" (from the link's query when the server adds it) and
 * "Pay with PayPal", which fetches the deposit's PayPal order and sends the buyer to PayPal's approval, or, with no
 * approval address, straight to the capture of an order already approved.
 */
export function PaypalPaymentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ref = useParams().txRef ?? '';
  const [params] = useSearchParams();
  const { data: branding } = useBranding();
  const [busy, setBusy] = useState(false);
  const amount = params.get('amount');
  const currency = params.get('currency') ?? '';
  const validAmount = amount !== null && /^\d+(\.\d+)?$/.test(amount);

  const pay = async () => {
    setBusy(true);
    try {
      const order = await apiPost<PaypalOrder>(`/payments/paypal/${ref}`);
      const link = approvalLink(order);
      if (link) return window.location.assign(link);
      void navigate(`/payments/paypal/capture/${encodeURIComponent(order.id)}`, { replace: true });
    } catch (err) {
      toastError(errorMessage(err, t(GENERIC_ERROR)));
      setBusy(false);
    }
  };

  return (
    <Center py="xl">
      <Paper withBorder radius="md" p="xl" maw={440} w="100%">
        <Stack gap="md" align="center">
          {branding?.appLogo && <Image src={branding.appLogo} alt={branding.appName} h={40} w="auto" />}
          <Title order={2} ta="center" data-testid="paypal-amount">
            {validAmount
              ? t('Deposit {{amount}} {{currency}}', { amount: formatMoney(amount, currency), currency })
              : t('Deposit')}
          </Title>
          <Button fullWidth size="md" color="yellow" c="dark" loading={busy} onClick={() => void pay()}>
            {t('Pay with PayPal')}
          </Button>
          <Button variant="subtle" onClick={() => void navigate('/deposits')}>
            {t('Back to deposits')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
