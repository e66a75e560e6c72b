/**
 * Small seeded random source for the simulated feed and the generated candle history: the same seed replays the
 * same prices, which makes demos and tests reproducible (Math.random cannot be seeded).
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal. */
  gauss(): number;
}

/** mulberry32: 32-bit state, fast, and statistically good enough for price noise. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  let spare: number | null = null;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    gauss() {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      // Box–Muller; 1 - next() keeps the logarithm's argument in (0, 1].
      const u = 1 - next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
  };
}

/** A per-name seed derived from one seed, so each instrument's history does not depend on the others. */
export function seedFor(seed: number, name: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
