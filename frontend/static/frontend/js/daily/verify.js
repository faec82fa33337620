// The daily's deals re-dealt in the browser from a revealed seed, exactly as the server's
// engine deals them (games/engine/rng.py and games/engine/rules.py, R3, R24), with nothing but
// Web Crypto's SHA-256 and BigInt:
//   key      = SHA-256(utf8([seed, ...parts].join("|")))          e.g. "seed|deal|3"
//   block i  = SHA-256(key || i as 8 bytes big-endian); the stream is block 0, block 1, ...
//   below(n) = the next 8 bytes as an unsigned big-endian x, rejected while
//              x >= 2^64 - (2^64 mod n); then x mod n
//   shuffle  = Fisher-Yates: for i from len-1 down to 1, swap items i and below(i + 1)
// The first dealer is below(4) of "seed|dealer"; deal n (1-10) shuffles the pack 0..106 with
// "seed|deal|n", its dealer is the first dealer + n - 1 (mod 4); cards 0-39 go one at a time
// clockwise from the dealer's left, card 40 is the first discard.
// tests/browser/test_deal_generator.py holds this module to the engine on 200 seeds.

const SEATS = 4;
const DEALS = 10;
const HAND_SIZE = 10;
const PACK_SIZE = 107;
const WORD = 1n << 64n;
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = "SHDC";
const encoder = new TextEncoder();

export function hasWebCrypto() {
  return Boolean(globalThis.crypto?.subtle);
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// SHA-256 of a text's UTF-8 bytes, in lowercase hex: what the daily's commitment is.
export async function sha256Hex(text) {
  return hex(await sha256(encoder.encode(text)));
}

export function derive(seed, ...parts) {
  return sha256(encoder.encode([seed, ...parts.map(String)].join("|")));
}

// The counter-mode stream of one derived key; each block holds four 8-byte words.
export class Stream {
  constructor(key) {
    this.key = key;
    this.counter = 0n;
    this.words = [];
  }

  static async of(seed, ...parts) {
    return new Stream(await derive(seed, ...parts));
  }

  async word() {
    if (this.words.length === 0) {
      const input = new Uint8Array(this.key.length + 8);
      input.set(this.key);
      new DataView(input.buffer).setBigUint64(this.key.length, this.counter, false);
      this.counter += 1n;
      const block = new DataView((await sha256(input)).buffer);
      for (let offset = 0; offset < 32; offset += 8) this.words.push(block.getBigUint64(offset, false));
    }
    return this.words.shift();
  }

  async below(n) {
    const size = BigInt(n);
    const limit = WORD - (WORD % size);
    for (;;) {
      const word = await this.word();
      if (word < limit) return Number(word % size);
    }
  }

  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

// A card 0..106 as the API names it: "7H.1" (rank, suit, deck copy) or "JK.1".
export function cardId(card) {
  if (card >= 104) return `JK.${card - 103}`;
  return `${RANKS[card % 13]}${SUITS[Math.floor((card % 52) / 13)]}.${Math.floor(card / 52) + 1}`;
}

export async function firstDealer(seed) {
  return (await Stream.of(seed, "dealer")).below(SEATS);
}

// One deal of a seed: its dealer, the four hands (seat 0 first) and the first discard, as ids.
export async function dealOf(seed, number, dealer) {
  const pack = Array.from({ length: PACK_SIZE }, (_, card) => card);
  await (await Stream.of(seed, "deal", number)).shuffle(pack);
  const dealt = SEATS * HAND_SIZE;
  const hands = Array.from({ length: SEATS }, () => []);
  for (let i = 0; i < dealt; i++) hands[(dealer + 1 + i) % SEATS].push(cardId(pack[i]));
  return { deal: number, dealer, hands, discard_top: cardId(pack[dealt]) };
}

// The ten deals of a seed and its first dealer.
export async function dealsOf(seed) {
  const first = await firstDealer(seed);
  const deals = [];
  for (let number = 1; number <= DEALS; number++) {
    deals.push(await dealOf(seed, number, (first + number - 1) % SEATS));
  }
  return { firstDealer: first, deals };
}

const idOf = (card) => (typeof card === "string" ? card : card?.id);

// Every difference between the deals re-dealt here and the deals the site says it dealt
// (GET /daily/{date}/deals or a replay's deals: cards as {"id": ...} or ids), in order:
// [{deal, what: "count" | "dealer" | "discard" | "hand", seat?, index?, expected, served}].
export function compareDeals(expected, served) {
  const differences = [];
  if (!Array.isArray(served) || served.length !== expected.length) {
    differences.push({ what: "count", expected: expected.length, served: Array.isArray(served) ? served.length : 0 });
    return differences;
  }
  expected.forEach((mine, d) => {
    const theirs = served[d] || {};
    const deal = mine.deal;
    if (theirs.dealer !== mine.dealer) differences.push({ deal, what: "dealer", expected: mine.dealer, served: theirs.dealer });
    if (idOf(theirs.discard_top) !== mine.discard_top) {
      differences.push({ deal, what: "discard", expected: mine.discard_top, served: idOf(theirs.discard_top) ?? null });
    }
    mine.hands.forEach((hand, seat) => {
      const other = (theirs.hands || [])[seat] || [];
      const length = Math.max(hand.length, other.length);
      for (let index = 0; index < length; index++) {
        if (idOf(other[index]) !== hand[index]) {
          differences.push({ deal, what: "hand", seat, index, expected: hand[index] ?? null, served: idOf(other[index]) ?? null });
        }
      }
    });
  });
  return differences;
}
