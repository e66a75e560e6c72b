import type { CategoryName } from '@platform/domain';
import type { Db } from '../client.ts';
import { instruments } from '../schema.ts';

/** [name, base, quote, alias, tradingview prefix, digits, mid price, typical spread] */
type Row = [string, string, string, string | null, string, number, number, number];

/** Default leverage per category, used when the client's pricing plan sets none. */
export const DEFAULT_LEVERAGE: Record<CategoryName, number> = {
  forex: 100,
  commodity: 50,
  index: 50,
  stock: 10,
  crypto: 5,
};

/**
 * Shipped swap rates per category, percent a year of a position's value as [long, short] (docs/decisions.md, Swap
 * rates): a financing cost a broker's clients would recognise, short index positions earning a little. The broker
 * edits each instrument's in Trade Management.
 */
export const DEFAULT_SWAP: Record<CategoryName, [long: number, short: number]> = {
  forex: [-2.5, -1.2],
  commodity: [-4.5, -1.8],
  index: [-5.5, 0.75],
  stock: [-6.5, -2.5],
  crypto: [-20, -12],
};

/** The seeded universe: realistic mid prices and spreads; the simulated feed starts from these. */
export const UNIVERSE: Record<CategoryName, Row[]> = {
  forex: [
    ['USD_CNH', 'USD', 'CNH', 'US Dollar / Chinese Yuan', 'OANDA', 5, 7.2415, 0.0012],
    ['EUR_USD', 'EUR', 'USD', 'Euro / US Dollar', 'OANDA', 5, 1.0852, 0.00008],
    ['GBP_USD', 'GBP', 'USD', 'British Pound / US Dollar', 'OANDA', 5, 1.2703, 0.00012],
    ['USD_JPY', 'USD', 'JPY', 'US Dollar / Japanese Yen', 'OANDA', 3, 151.215, 0.012],
    ['USD_CHF', 'USD', 'CHF', 'US Dollar / Swiss Franc', 'OANDA', 5, 0.8851, 0.00014],
    ['AUD_USD', 'AUD', 'USD', 'Australian Dollar / US Dollar', 'OANDA', 5, 0.6548, 0.0001],
    ['USD_CAD', 'USD', 'CAD', 'US Dollar / Canadian Dollar', 'OANDA', 5, 1.3652, 0.00015],
    ['NZD_USD', 'NZD', 'USD', 'New Zealand Dollar / US Dollar', 'OANDA', 5, 0.6002, 0.00015],
    ['EUR_GBP', 'EUR', 'GBP', 'Euro / British Pound', 'OANDA', 5, 0.8543, 0.00012],
    ['EUR_JPY', 'EUR', 'JPY', 'Euro / Japanese Yen', 'OANDA', 3, 164.102, 0.018],
    ['GBP_JPY', 'GBP', 'JPY', 'British Pound / Japanese Yen', 'OANDA', 3, 192.087, 0.025],
    ['AUD_JPY', 'AUD', 'JPY', 'Australian Dollar / Japanese Yen', 'OANDA', 3, 99.014, 0.02],
    ['EUR_CHF', 'EUR', 'CHF', 'Euro / Swiss Franc', 'OANDA', 5, 0.9605, 0.00018],
  ],
  commodity: [
    ['XAU_USD', 'XAU', 'USD', 'Gold', 'OANDA', 2, 2651.4, 0.3],
    ['XAG_USD', 'XAG', 'USD', 'Silver', 'OANDA', 3, 31.215, 0.025],
    ['XPT_USD', 'XPT', 'USD', 'Platinum', 'OANDA', 2, 961.3, 1.5],
    ['XPD_USD', 'XPD', 'USD', 'Palladium', 'OANDA', 2, 1004.6, 2.5],
    ['XCU_USD', 'XCU', 'USD', 'Copper', 'OANDA', 4, 4.2035, 0.0025],
    ['WTICO_USD', 'WTICO', 'USD', 'West Texas Oil', 'OANDA', 3, 72.482, 0.03],
    ['BCO_USD', 'BCO', 'USD', 'Brent Crude Oil', 'OANDA', 3, 76.214, 0.03],
    ['NATGAS_USD', 'NATGAS', 'USD', 'Natural Gas', 'OANDA', 3, 3.104, 0.006],
    ['CORN_USD', 'CORN', 'USD', 'Corn', 'OANDA', 3, 4.302, 0.008],
    ['WHEAT_USD', 'WHEAT', 'USD', 'Wheat', 'OANDA', 3, 5.604, 0.01],
    ['SOYBN_USD', 'SOYBN', 'USD', 'Soybeans', 'OANDA', 3, 10.112, 0.015],
    ['SUGAR_USD', 'SUGAR', 'USD', 'Sugar', 'OANDA', 5, 0.21045, 0.0003],
  ],
  index: [
    ['SPX500_USD', 'SPX500', 'USD', 'US S&P 500', 'OANDA', 1, 5901.3, 0.5],
    ['NAS100_USD', 'NAS100', 'USD', 'US Nasdaq 100', 'OANDA', 1, 20812.4, 1.5],
    ['US30_USD', 'US30', 'USD', 'US Wall St 30', 'OANDA', 1, 43512.6, 2.5],
    ['US2000_USD', 'US2000', 'USD', 'US Russell 2000', 'OANDA', 2, 2351.25, 0.3],
    ['DE30_EUR', 'DE30', 'EUR', 'Germany 40', 'OANDA', 1, 19304.2, 1.2],
    ['UK100_GBP', 'UK100', 'GBP', 'UK 100', 'OANDA', 1, 8102.5, 1],
    ['FR40_EUR', 'FR40', 'EUR', 'France 40', 'OANDA', 1, 7301.8, 1],
    ['EU50_EUR', 'EU50', 'EUR', 'Europe 50', 'OANDA', 1, 4802.6, 1],
    ['JP225_USD', 'JP225', 'USD', 'Japan 225', 'OANDA', 1, 38504.5, 7],
    ['AU200_AUD', 'AU200', 'AUD', 'Australia 200', 'OANDA', 1, 8201.4, 1],
    ['HK33_HKD', 'HK33', 'HKD', 'Hong Kong 33', 'OANDA', 1, 19502.7, 4],
  ],
  stock: [
    ['AAPL_USD', 'AAPL', 'USD', 'Apple Inc.', 'NASDAQ', 2, 228.52, 0.04],
    ['MSFT_USD', 'MSFT', 'USD', 'Microsoft Corp.', 'NASDAQ', 2, 415.31, 0.06],
    ['AMZN_USD', 'AMZN', 'USD', 'Amazon.com Inc.', 'NASDAQ', 2, 201.44, 0.04],
    ['GOOGL_USD', 'GOOGL', 'USD', 'Alphabet Inc.', 'NASDAQ', 2, 175.12, 0.04],
    ['TSLA_USD', 'TSLA', 'USD', 'Tesla Inc.', 'NASDAQ', 2, 341.6, 0.1],
    ['NVDA_USD', 'NVDA', 'USD', 'NVIDIA Corp.', 'NASDAQ', 2, 145.27, 0.04],
    ['META_USD', 'META', 'USD', 'Meta Platforms Inc.', 'NASDAQ', 2, 561.8, 0.1],
    ['NFLX_USD', 'NFLX', 'USD', 'Netflix Inc.', 'NASDAQ', 2, 881.4, 0.2],
    ['JPM_USD', 'JPM', 'USD', 'JPMorgan Chase & Co.', 'NYSE', 2, 240.15, 0.05],
    ['V_USD', 'V', 'USD', 'Visa Inc.', 'NYSE', 2, 310.22, 0.06],
    ['KO_USD', 'KO', 'USD', 'Coca-Cola Co.', 'NYSE', 2, 63.41, 0.02],
    ['DIS_USD', 'DIS', 'USD', 'Walt Disney Co.', 'NYSE', 2, 115.08, 0.03],
  ],
  crypto: [
    ['BTC_USD', 'BTC', 'USD', 'Bitcoin', 'COINBASE', 2, 91250.5, 12],
    ['ETH_USD', 'ETH', 'USD', 'Ethereum', 'COINBASE', 2, 3105.42, 1.2],
    ['SOL_USD', 'SOL', 'USD', 'Solana', 'COINBASE', 2, 240.36, 0.15],
    ['XRP_USD', 'XRP', 'USD', 'Ripple', 'BINANCE', 4, 1.1024, 0.0012],
    ['ADA_USD', 'ADA', 'USD', 'Cardano', 'BINANCE', 4, 0.7812, 0.0009],
    ['DOGE_USD', 'DOGE', 'USD', 'Dogecoin', 'BINANCE', 5, 0.38214, 0.0004],
    ['LTC_USD', 'LTC', 'USD', 'Litecoin', 'COINBASE', 2, 95.34, 0.12],
    ['DOT_USD', 'DOT', 'USD', 'Polkadot', 'BINANCE', 3, 6.512, 0.008],
    ['LINK_USD', 'LINK', 'USD', 'Chainlink', 'BINANCE', 3, 15.524, 0.02],
    ['AVAX_USD', 'AVAX', 'USD', 'Avalanche', 'BINANCE', 2, 36.18, 0.05],
    ['BNB_USD', 'BNB', 'USD', 'BNB', 'BINANCE', 2, 620.45, 0.5],
    ['BCH_USD', 'BCH', 'USD', 'Bitcoin Cash', 'COINBASE', 2, 430.62, 0.5],
  ],
};

/** Inserts the universe; instruments that already exist (by name) are left as the broker edited them. */
export async function seedInstruments(db: Db): Promise<void> {
  const values = (Object.entries(UNIVERSE) as Array<[CategoryName, Row[]]>).flatMap(([category, rows]) => {
    const [swapLong, swapShort] = DEFAULT_SWAP[category];
    return rows.map(([name, base, quote, alias, tradingview, digits, mid, spread]) => ({
      name,
      base,
      quote,
      alias,
      tradingview,
      digits,
      category,
      leverage: DEFAULT_LEVERAGE[category],
      swapLong: String(swapLong),
      swapShort: String(swapShort),
      bids: (mid - spread / 2).toFixed(digits),
      asks: (mid + spread / 2).toFixed(digits),
    }));
  });
  await db.insert(instruments).values(values).onConflictDoNothing();
}
