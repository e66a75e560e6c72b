/** The demo customers' names, home towns and banks, and the seeded generator that picks among them. */

export const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Sofia',
  'Lucas',
  'Mia',
  'Mateo',
  'Amelia',
  'Leon',
  'Chloe',
  'Hugo',
  'Isabella',
  'Arjun',
  'Yuki',
  'Omar',
  'Lea',
  'Ethan',
  'Zara',
  'Diego',
  'Nina',
  'Felix',
  'Aisha',
  'Marco',
];
export const LAST = [
  'Smith',
  'García',
  'Müller',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Silva',
  'Nguyen',
  'Khan',
  'Jensen',
  'Novak',
  'Tanaka',
  'Okafor',
  'Larsen',
  'Moreau',
  'Costa',
];
export const PLACES: Array<[string, string]> = [
  ['United Kingdom', 'Manchester'],
  ['Germany', 'Hamburg'],
  ['Spain', 'Valencia'],
  ['France', 'Lyon'],
  ['Italy', 'Milan'],
  ['Poland', 'Kraków'],
  ['Portugal', 'Porto'],
  ['Netherlands', 'Utrecht'],
  ['Sweden', 'Gothenburg'],
  ['Ireland', 'Cork'],
  ['United Arab Emirates', 'Dubai'],
  ['South Africa', 'Cape Town'],
  ['Singapore', 'Singapore'],
  ['Canada', 'Toronto'],
];
export const BANKS = ['Barclays', 'Deutsche Bank', 'BBVA', 'BNP Paribas', 'ING', 'Santander', 'HSBC'];

/** Small deterministic generator (mulberry32), so every demo start shows the same history. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
