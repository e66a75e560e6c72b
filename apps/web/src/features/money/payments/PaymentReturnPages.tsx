import { useEffect, useRef, useState } from 'react';
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { GENERIC_ERROR, type PaymentResultResponse } from '@platform/domain';
import { apiGet, apiPost, errorMessage } from '../../../api/client.ts';

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
    const query = Object.fromEntries(params.entries());
    const check = async () => {
      try {
        const result = await apiGet<PaymentResultResponse>(`/payments/return/${ref}`, query);
        if (stop) return;
        if (result.status !== 'pending' || Date.now() - started.current > POLL_FOR_MS) return void navigate(result.redirect, { replace: true });
        setTimeout(() => void check(), POLL_MS);
      } catch (err) {
        if (!stop) setFailed(errorMessage(err, t(GENERIC_ERROR)));
      }
    };
    void check();
    return () => {
      stop = true;
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
    apiPost<PaymentResultResponse>(`/payments/paypal/capture/${orderId}`)
      .then((result) => navigate(result.redirect, { replace: true }))
      .catch((err: unknown) => setFailed(errorMessage(err, t(GENERIC_ERROR))));
  }, [orderId, navigate, t]);
  return <Waiting text={t('Confirming your PayPal payment...')} failed={failed} />;
}

/** /payments/paypal/{tx_ref}: the PayPal order of the deposit, then PayPal's approval or the capture. */
export function PaypalPaymentPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ref = useParams().txRef ?? '';
  const [failed, setFailed] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    apiPost<{ id: string }>(`/payments/paypal/${ref}`)
      .then((order) => navigate(`/payments/paypal/capture/${order.id}`, { replace: true }))
      .catch((err: unknown) => setFailed(errorMessage(err, t(GENERIC_ERROR))));
  }, [ref, navigate, t]);
  return <Waiting text={t('Opening PayPal...')} failed={failed} />;
}
