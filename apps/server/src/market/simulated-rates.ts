/**
 * The simulated feed's conversion rates: units per one USD of currencies no instrument links to another. HK33 is
 * quoted in HKD and no pair prices HKD, so without these a wallet in any currency had no rate for it. The Hong Kong
 * dollar is pegged to the US dollar within 7.75–7.85, so the middle of the band stands in until (or unless) the
 * currency API gives a live rate, which then takes precedence.
 */
export const SIMULATED_USD_RATES: ReadonlyMap<string, number> = new Map([
  ['USD', 1],
  ['HKD', 7.8],
]);
