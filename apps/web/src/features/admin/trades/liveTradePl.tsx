import { createContext, useContext, useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import {
  TRADE_PL_EVENT,
  TRADE_PL_UNWATCH,
  TRADE_PL_WATCH,
  TRADE_PL_WATCH_MAX,
  type AdminTradeDto,
  type TradePlEvent,
} from '@platform/domain';
import { useTranslation } from 'react-i18next';
import { getSocket, useRealtimeEvent } from '../../../api/realtime.ts';
import { EMPTY_CELL } from '../../../ui/data-table/index.ts';

/** Floating P/L of open trades by id, as the server's risk engine last sent it. */
export type LivePl = ReadonlyMap<number, string | null>;

const LivePlContext = createContext<LivePl>(new Map());
export const LivePlProvider = LivePlContext.Provider;

/**
 * Follows the floating P/L of the open trades on screen: asks the server to watch them (TRADE_PL_WATCH, again after
 * every reconnect and whenever the page's open trades change) and keeps what TRADE_PL_EVENT sends.
 */
export function useLiveTradePl(rows: readonly Pick<AdminTradeDto, 'id' | 'close_time'>[]): LivePl {
  const [live, setLive] = useState<LivePl>(new Map());
  const ids = rows
    .filter((r) => r.close_time === null)
    .map((r) => r.id)
    .slice(0, TRADE_PL_WATCH_MAX);
  const idsKey = ids.join(',');
  useEffect(() => {
    const watched = idsKey ? idsKey.split(',').map(Number) : [];
    if (watched.length === 0) return;
    const socket = getSocket();
    const watch = () => socket.emit(TRADE_PL_WATCH, { ids: watched });
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
      socket.emit(TRADE_PL_UNWATCH);
    };
  }, [idsKey]);
  useRealtimeEvent<TradePlEvent>(TRADE_PL_EVENT, (e) => {
    if (!e || typeof e.pl !== 'object') return;
    setLive((prev) => {
      const next = new Map(prev);
      for (const [id, value] of Object.entries(e.pl)) next.set(Number(id), value);
      return next;
    });
  });
  return live;
}

/** A stored decimal without its trailing zeros (1.10000000 → 1.1), green above zero, red otherwise. */
export function ColoredFigure({ value }: { value: string | null }) {
  if (value === null) return EMPTY_CELL;
  return (
    <Text span size="sm" c={Number(value) > 0 ? 'teal' : 'red'} ff="monospace">
      {String(Number(value))}
    </Text>
  );
}

/** An open trade's floating P/L: the last the server sent, else the list's own; null once closed. */
export function useFloatingPl(trade: {
  id: number;
  close_time: string | null;
  live_pl?: string | null;
}): string | null {
  const live = useContext(LivePlContext);
  if (trade.close_time !== null) return null;
  return live.has(trade.id) ? (live.get(trade.id) ?? null) : (trade.live_pl ?? null);
}

/**
 * PRO/LOSS of a trade: the booked figure once closed; while open, its floating P/L (the last the server sent, else
 * the list's own) in italics, titled as floating.
 */
export function TradePlCell({ trade }: { trade: AdminTradeDto }) {
  const { t } = useTranslation();
  const value = useFloatingPl(trade);
  if (trade.close_time !== null) return <ColoredFigure value={trade.pro_loss} />;
  if (value === null) return EMPTY_CELL;
  return (
    <Text
      span
      size="sm"
      c={Number(value) > 0 ? 'teal' : 'red'}
      ff="monospace"
      fs="italic"
      title={t('Floating P/L')}
      data-live-pl={trade.id}
    >
      {String(Number(Number(value).toFixed(5)))}
    </Text>
  );
}
