/** How big each benchmark runs: `smoke` (seconds, tests), `quick` (default `npm run bench`), `full`. */
export type Mode = 'smoke' | 'quick' | 'full';

export interface Sizes {
  rounds: number;
  /** B1: bidders, watchers, seconds per phase. */
  b1: { bidders: number; watchers: number; seconds: number };
  /** B2/B7: watchers, bids per second, seconds; rounds (issue 30: the median of at least 5 in quick and full). */
  b2: { watchers: number; rate: number; seconds: number; rounds: number };
  /** B9 (issue 30): watchers of one auction, bids per second (two bidders), seconds, rounds. */
  b9: { watchers: number; rate: number; seconds: number; rounds: number };
  /** B3/B6: auctions in the database; seconds per latency / throughput phase. */
  b3: { auctions: number; seconds: number; concurrency: number };
  /** B3 on PostgreSQL: auctions in the database (the goal is stated at 100,000; quick seeds fewer). */
  b3pg: { auctions: number };
  b4: { starts: number };
  b6: { sockets: number; auctions: number };
  /** Soak (issue 29): seconds at a steady rate of bids and list reads with watchers held; a probe sample every `sampleSeconds`. */
  soak: { seconds: number; bidsPerSecond: number; readsPerSecond: number; watchers: number; sampleSeconds: number };
  /** Saved searches (issue 28): searches stored, members they belong to, creates per phase. */
  ss: { searches: number; members: number; creates: number };
}

export function sizesFor(mode: Mode): Sizes {
  switch (mode) {
    case 'smoke':
      return {
        rounds: 1,
        b1: { bidders: 10, watchers: 3, seconds: 1 },
        b2: { watchers: 50, rate: 20, seconds: 1.5, rounds: 1 },
        b9: { watchers: 100, rate: 2, seconds: 1.5, rounds: 1 },
        b3: { auctions: 1000, seconds: 0.3, concurrency: 4 },
        b3pg: { auctions: 500 },
        b4: { starts: 1 },
        b6: { sockets: 50, auctions: 1000 },
        soak: { seconds: 8, bidsPerSecond: 10, readsPerSecond: 20, watchers: 20, sampleSeconds: 1 },
        ss: { searches: 300, members: 30, creates: 8 },
      };
    case 'quick':
      return {
        rounds: 3,
        b1: { bidders: 50, watchers: 10, seconds: 4 },
        b2: { watchers: 1000, rate: 20, seconds: 10, rounds: 5 },
        b9: { watchers: 10_000, rate: 2, seconds: 10, rounds: 2 },
        b3: { auctions: 100_000, seconds: 1.5, concurrency: 8 },
        b3pg: { auctions: 20_000 },
        b4: { starts: 5 },
        b6: { sockets: 1000, auctions: 100_000 },
        soak: { seconds: 180, bidsPerSecond: 20, readsPerSecond: 50, watchers: 200, sampleSeconds: 5 },
        ss: { searches: 10_000, members: 2000, creates: 60 },
      };
    case 'full':
      return {
        rounds: 5,
        b1: { bidders: 50, watchers: 10, seconds: 10 },
        b2: { watchers: 1000, rate: 20, seconds: 30, rounds: 5 },
        b9: { watchers: 10_000, rate: 2, seconds: 30, rounds: 3 },
        b3: { auctions: 100_000, seconds: 4, concurrency: 8 },
        b3pg: { auctions: 100_000 },
        b4: { starts: 11 },
        b6: { sockets: 1000, auctions: 100_000 },
        soak: { seconds: 1800, bidsPerSecond: 20, readsPerSecond: 50, watchers: 200, sampleSeconds: 10 },
        ss: { searches: 10_000, members: 2000, creates: 200 },
      };
  }
}

/** One line of the result table. */
export interface Row {
  id: string;
  what: string;
  subject: string;
  baseline: string;
  ratio: string;
  goal: string;
  pass: boolean | null;
  notes?: string[];
  /** Raw figures for the JSON result file. */
  data?: unknown;
}
