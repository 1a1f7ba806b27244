// Generated from programs/ids.json by programs/tools/gen.ts. Do not edit.
import { PublicKey } from '@solana/web3.js';

/** Program ids (programs/ids.json: sha256("zerox1:<name>") as an address). */
export const PROGRAM_IDS = {
  stakeLock: new PublicKey('Av91oDvLR1HGqHwJdatCa8hZiz7ZG7jn5NSYAkdFvv6i'),
  lease: new PublicKey('A58po7VsVayEQWoEfdGu3sDWdNGKwfxtZVLGCoBn37Mh'),
  behaviorLog: new PublicKey('2qQUo1Nn46yoq1rsnvLjttYNv65eCQFDHiwwoXGE4iLT'),
  challenge: new PublicKey('CrCH2s2zmZPr3QYLzKsZoGewB97vcbo4kQMaqZ5QBzuQ'),
  haggle: new PublicKey('AMZJUUoaZkGBPu16LExW2KBiheh1bbt35ADZtDyNLZrd'),
} as const;
