import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/types';
import { normaliseForSearch } from '@shared/rules/search';
import { categoryLabel } from '@shared/categories';
import { MIN_BID_INCREMENT } from '@shared/rules/limits';
import { storeImage, type StoredImage } from '../images/media-store';
import { isoAt } from '../../lib/time';
import { insertAuction, insertBid, insertComment, insertImage, listDemoUsers } from './demo.repository';

/** [category, title, description, starting price in dinars] */
const ITEMS: [string, string, string, number][] = [
  ['electronics', 'Samsung Galaxy S21, 128 GB', 'Telefon u odličnom stanju, bez ogrebotina. Uz telefon idu punjač i maska. Baterija drži ceo dan.', 24000],
  ['electronics', 'Laptop Lenovo ThinkPad T480', 'Intel i5, 16 GB RAM, SSD 512 GB. Idealan za posao i studije, tastatura kao nova.', 38000],
  ['electronics', 'Sony slušalice WH-1000XM4', 'Bežične slušalice sa poništavanjem buke. Korišćene nekoliko meseci, originalna kutija.', 17500],
  ['electronics', 'Televizor LG 55" 4K', 'Smart TV, slika odlična, daljinski upravljač uključen. Preuzimanje lično.', 42000],
  ['electronics', 'Fotoaparat Canon EOS 600D', 'Sa objektivom 18-55 mm, dve baterije i torbom. Oko 12.000 okidanja.', 21000],
  ['appliances', 'Veš mašina Gorenje 7 kg', 'Ispravna, redovno održavana. Razlog prodaje: selidba.', 15000],
  ['appliances', 'Aparat za espreso DeLonghi', 'Pravi odličnu kafu sa kremom. Očišćen od kamenca, spreman za upotrebu.', 9000],
  ['appliances', 'Usisivač Dyson V8', 'Bežični usisivač sa svim nastavcima. Baterija zamenjena pre mesec dana.', 19000],
  ['appliances', 'Mikrotalasna rerna Bosch', 'Malo korišćena, 800 W, sa funkcijom grila.', 5500],
  ['jewelry', 'Srebrna ogrlica sa privescima', 'Ručni rad, srebro 925. Poklon kutija uključena.', 4500],
  ['jewelry', 'Ručni sat Seiko 5 automatik', 'Automatski mehanizam, čelično kućište, nova narukvica.', 16000],
  ['jewelry', 'Zlatne minđuše 14k', 'Klasičan dizajn, nošene nekoliko puta. Uz račun iz zlatare.', 22000],
  ['jewelry', 'Starinski džepni sat', 'Džepni sat iz sredine prošlog veka, radi ispravno. Lepa patina.', 12500],
  ['clothing', 'Šešir od filca, ručni rad', 'Braon šešir, veličina 57. Nošen dva puta, kao nov.', 2500],
  ['clothing', 'Zimska jakna The North Face', 'Veličina M, topla i vodootporna. Bez oštećenja.', 11000],
  ['clothing', 'Kožne čizme, broj 39', 'Prava koža, crne, malo nošene. Udobne i tople.', 6000],
  ['clothing', 'Vuneni džemper, pleten ručno', 'Topao džemper od domaće vune, veličina L.', 3000],
  ['toys', 'PlayStation 4 Pro sa dva džojstika', 'Konzola 1 TB, dva džojstika i pet igrica. Sve radi besprekorno.', 26000],
  ['toys', 'LEGO Technic kamion', 'Kompletan set sa uputstvom, sklopljen jednom.', 8500],
  ['toys', 'Drveni konjić za ljuljanje', 'Ručno rađen, bezbedne boje. Za decu od 2 godine.', 4000],
  ['toys', 'Nintendo Switch Lite', 'Tirkizna boja, sa futrolom i igrom Mario Kart.', 18000],
  ['furniture', 'Trosed na razvlačenje', 'Sivi trosed sa prostorom za posteljinu. Očuvan, bez fleka.', 14000],
  ['furniture', 'Trpezarijski sto od hrasta', 'Masivan sto za šest osoba, stolice nisu uključene.', 23000],
  ['furniture', 'Radni sto sa fiokama', 'Beli radni sto, 120 x 60 cm. Lako se rasklapa za prevoz.', 5000],
  ['furniture', 'Starinska komoda', 'Komoda od orahovine, restaurirana. Četiri fioke.', 17000],
  ['sports', 'Bicikl Capriolo 26"', 'Brdski bicikl, 21 brzina, nove gume i kočnice.', 13000],
  ['sports', 'Set tegova 2 x 10 kg', 'Hromirani tegovi sa šipkama i zavrtnjima.', 4500],
  ['sports', 'Skije Atomic 170 cm sa vezovima', 'Servisirane pred sezonu. Uz njih idu i štapovi.', 12000],
  ['sports', 'Kožna fudbalska lopta', 'Zvanična veličina 5, šivena ručno.', 2000],
  ['sports', 'Teniski reket Wilson', 'Malo korišćen, nova žica. Sa torbicom.', 5500],
  ['collectibles', 'Kolekcija starih novčanica SFRJ', 'Tridesetak novčanica iz perioda 1965–1990, u albumu.', 6000],
  ['collectibles', 'Gramofon Telefunken iz 70-ih', 'Ispravan, nova igla. Pravi retro komad.', 19500],
  ['collectibles', 'Poštanske marke – ćirilica i latinica', 'Album sa markama iz Jugoslavije i Srbije, preko 300 komada.', 7000],
  ['collectibles', 'Stari radio aparat Nikola Tesla', 'Radio iz 1960-ih, radi na srednjim talasima.', 9500],
  ['media', 'Komplet knjiga Ive Andrića', 'Sabrana dela u 16 knjiga, tvrd povez, odlično očuvano.', 8000],
  ['media', 'Gramofonske ploče – domaći rok', 'Dvadeset LP ploča: Riblja Čorba, Bajaga, EKV, Partibrejkers.', 10000],
  ['media', 'Kolekcija DVD filmova', 'Preko 50 naslova, domaći i strani filmovi sa titlom.', 3000],
  ['media', 'Udžbenici za prvi razred gimnazije', 'Kompletan set udžbenika, bez podvlačenja. Za đaka prvaka gimnazije.', 2500],
  ['tools', 'Bušilica Bosch Professional', 'Udarna bušilica sa koferom i setom burgija.', 8500],
  ['tools', 'Set ključeva 94 dela', 'Gedore set u metalnom koferu, kompletan.', 7500],
  ['tools', 'Motorna testera Husqvarna', 'Ispravna, nov lanac, redovno servisirana.', 21000],
  ['tools', 'Aparat za varenje Inverter', 'Malo korišćen, sa maskom i kablovima.', 11000],
  ['vehicles', 'Golf 4 1.9 TDI, 2002.', 'Registrovan do leta, redovno servisiran. Prešao 245.000 km.', 260000],
  ['vehicles', 'Skuter Piaggio Liberty 125', 'Godište 2015, prešao 18.000 km. Kaciga na poklon.', 95000],
  ['vehicles', 'Zimske gume 205/55 R16', 'Četiri gume, dubina šare 6 mm. Jedna sezona vožnje.', 14000],
  ['vehicles', 'Krovni nosač za automobil', 'Univerzalni nosač sa ključem, kao nov.', 4000],
  ['real-estate', 'Garaža u centru Kragujevca', 'Zidana garaža, 15 m², struja uvedena. Uknjižena.', 900000],
  ['real-estate', 'Plac na Fruškoj gori, 6 ari', 'Građevinsko zemljište sa pogledom, pristup asfaltom.', 1500000],
  ['real-estate', 'Vikendica kraj Drine', 'Drvena kuća sa dvorištem, 50 m od reke. Idealno za pecaroše.', 3200000],
  ['food', 'Domaći med od bagrema, 5 kg', 'Med sa sopstvenog pčelinjaka, ovogodišnji.', 4500],
  ['food', 'Ajvar iz Leskovca, 10 tegli', 'Domaći pečeni ajvar, blago ljut. Tegle od 720 g.', 5000],
  ['food', 'Šljivovica, 3 litre', 'Domaća rakija od šljive, odležala pet godina u hrastovom buretu.', 6000],
  ['food', 'Kajmak iz Zlatibora, 1 kg', 'Mladi kajmak, sveže pripremljen. Preuzimanje u Užicu.', 2500],
  ['other', 'Ručno tkani ćilim iz Pirota', 'Pirotski ćilim, 2 x 1,5 m, tradicionalni motivi.', 35000],
  ['other', 'Harmonika Weltmeister', '80 basova, ispravna i naštimovana. Sa koferom.', 45000],
  ['other', 'Akvarijum 120 litara sa opremom', 'Filter, grejač, svetlo i dekoracija uključeni.', 7000],
  ['other', 'Kavez za papagaja', 'Prostran kavez sa hranilicama i igračkama.', 3000],
  ['other', 'Telefon fiksni, retro stil', 'Telefon sa brojčanikom, radi na svim linijama.', 2000],
];

const CITIES = ['Beograd', 'Novi Sad', 'Niš', 'Kragujevac', 'Subotica', 'Čačak', 'Kraljevo', 'Zrenjanin', 'Pančevo', 'Valjevo', 'Šabac', 'Užice'];

const COMMENTS = [
  'Da li je moguće lično preuzimanje?',
  'Koliko je star predmet?',
  'Ima li oštećenja koja se ne vide na slikama?',
  'Šaljete li poštom?',
  'Odlična ponuda, pratim aukciju!',
  'Da li je cena fiksna posle aukcije?',
];

const SELLER_REPLIES = ['Moguće je, javite se telefonom.', 'Šaljem brzom poštom, plaćanje pouzećem.', 'Nema oštećenja, sve je ispravno.'];

const PALETTE: Record<string, [string, string]> = {
  electronics: ['#1e3a8a', '#3b82f6'],
  appliances: ['#0f766e', '#5eead4'],
  jewelry: ['#7c2d12', '#fbbf24'],
  clothing: ['#831843', '#f472b6'],
  toys: ['#6d28d9', '#fcd34d'],
  furniture: ['#78350f', '#d6a46b'],
  sports: ['#166534', '#86efac'],
  collectibles: ['#44403c', '#d6d3d1'],
  media: ['#1f2937', '#f87171'],
  tools: ['#9a3412', '#fdba74'],
  vehicles: ['#111827', '#60a5fa'],
  'real-estate': ['#14532d', '#a3e635'],
  food: ['#b45309', '#fde68a'],
  other: ['#334155', '#94a3b8'],
};

/** A small deterministic PRNG (mulberry32): the demo looks the same on every fresh start. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Breaks a title into lines of about `max` characters for the picture. */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && (line + ' ' + word).length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.slice(0, 3);
}

/** A 960×720 gradient picture (drawn at 1200×900) with the title and category drawn on it (SVG rendered by sharp). */
async function demoPicture(title: string, category: string, variant: number): Promise<{ card: Buffer; large: Buffer; width: number; height: number }> {
  const [from, to] = PALETTE[category] ?? PALETTE.other;
  const lines = wrap(title, 22);
  const angle = variant === 0 ? '0" y2="1' : '1" y2="0';
  const circles =
    variant === 0
      ? '<circle cx="1050" cy="150" r="220" fill="#fff" opacity="0.08"/><circle cx="120" cy="820" r="260" fill="#fff" opacity="0.06"/>'
      : '<rect x="80" y="80" width="1040" height="740" rx="40" fill="none" stroke="#fff" stroke-width="6" opacity="0.25"/>';
  const text = lines
    .map((l, i) => `<text x="600" y="${450 - (lines.length - 1) * 45 + i * 90}" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="72" font-weight="bold" fill="#fff" stroke="#000" stroke-opacity="0.3" stroke-width="3" paint-order="stroke">${escapeXml(l)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
<defs><linearGradient id="g" x1="0" y1="0" x2="${angle}"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="1200" height="900" fill="url(#g)"/>${circles}${text}
<text x="600" y="780" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="40" fill="#fff" opacity="0.85">${escapeXml(categoryLabel(category))}</text>
</svg>`;
  // Loaded on first use, not at start: sharp is the slowest module to load (docs/performance.md, B4).
  const { default: sharp } = await import('sharp');
  const base = sharp(Buffer.from(svg)).flatten({ background: from });
  const [large, card] = await Promise.all([
    // Flat generated art compresses well even at the lowest effort: keeps seeding within a few seconds.
    base.clone().resize({ width: 960, height: 720 }).webp({ quality: 80, effort: 0 }).toBuffer(),
    base.clone().resize({ width: 480, height: 360, fit: 'cover' }).webp({ quality: 75, effort: 0 }).toBuffer(),
  ]);
  return { card, large, width: 960, height: 720 };
}

/** Runs `fn` over `items` with at most `n` at a time (sharp already uses several threads per image). */
async function mapLimit<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/**
 * Demo auctions for a fresh database (SEED_DEMO=1): about 60 across every category, with generated
 * pictures, bids and comments from the demo users. End times run from a few minutes (the first one ends
 * within 3 minutes) to 7 auction days, so a start looks alive and a close happens soon.
 */
export async function seedDemoAuctions(ctx: AppContext): Promise<void> {
  const users = await listDemoUsers(ctx.db);
  if (users.length < 2) return;
  const pictures = await mapLimit(ITEMS, 4, async ([category, title], i) => {
    const count = i % 4 === 0 ? 2 : 1;
    const stored: StoredImage[] = [];
    for (let v = 0; v < count; v++) stored.push(await storeImage(ctx.config.mediaDir, await demoPicture(title, category, v)));
    return stored;
  });
  const world: DemoWorld = { users, rnd: prng(20261122), now: Date.now(), day: ctx.config.auctionDaySeconds * 1000 };
  await ctx.db.transaction().execute(async (tx) => {
    for (const [i, item] of ITEMS.entries()) await insertDemoAuction(tx, world, i, item, pictures[i]);
  });
  ctx.logger.info({ auctions: ITEMS.length }, 'demo auctions created');
}

type DemoUser = { id: number; phone_number: string; city: string };

/** What every demo auction is drawn from; `rnd` is consumed in ITEMS order, so the demo is the same each time. */
interface DemoWorld {
  users: DemoUser[];
  rnd: () => number;
  now: number;
  /** One auction day in ms (AUCTION_DAY_SECONDS). */
  day: number;
}

const pick = <T>(rnd: () => number, xs: T[]) => xs[Math.floor(rnd() * xs.length)];

/** The i-th demo auction with its bids, pictures and comments. */
async function insertDemoAuction(tx: DbOrTx, w: DemoWorld, i: number, item: (typeof ITEMS)[number], pictures: StoredImage[]): Promise<void> {
  const [category, title, description, price] = item;
  const { rnd, now, day } = w;
  const seller = w.users[i % w.users.length];
  // The first auction ends within 3 minutes, a few within the hour, the rest spread over 7 days.
  const endsIn = i === 0 ? 3 * 60_000 : i < 4 ? i * 15 * 60_000 : Math.round((0.1 + rnd() * 6.9) * day);
  const createdAt = now - Math.round((0.05 + rnd() * 2) * Math.min(day, 86_400_000));
  const end = isoAt(now + endsIn);
  const bidders = w.users.filter((u) => u.id !== seller.id);
  const bids = demoBids(w, i, price, createdAt, bidders);
  const city = i % 3 === 0 && seller.city ? seller.city : pick(rnd, CITIES);
  const id = await insertAuction(tx, {
    seller_id: seller.id,
    title,
    description,
    category,
    city,
    city_norm: normaliseForSearch(city),
    phone_number: /^0\d{8,14}$/.test(seller.phone_number) ? seller.phone_number : '0641234567',
    starting_price: price,
    current_price: bids.at(-1)?.amount ?? price,
    bid_count: bids.length,
    end_date: end,
    original_end_date: end,
    status: 'active',
    winner_id: null,
    search_text: normaliseForSearch(`${title} ${description}`),
    created_at: isoAt(createdAt),
    closed_at: null,
  });
  for (const b of bids) await insertBid(tx, { auction_id: id, ...b });
  for (const [position, img] of pictures.entries()) await insertImage(tx, { auction_id: id, position, ...img, created_at: isoAt(createdAt) });
  await insertDemoComments(tx, w, i, { id, sellerId: seller.id, createdAt }, bidders);
}

/** Rising bids spread evenly between creation and now, never two in a row from the same bidder. */
function demoBids(w: DemoWorld, i: number, price: number, createdAt: number, bidders: DemoUser[]) {
  const { rnd, now } = w;
  const bidCount = i % 3 === 2 ? 0 : Math.floor(rnd() * 7) + (i < 4 ? 2 : 0);
  let current = price;
  const bids: { bidder_id: number; amount: number; created_at: string }[] = [];
  let last = 0;
  for (let b = 0; b < bidCount; b++) {
    const step = Math.max(MIN_BID_INCREMENT, Math.round((price * (0.02 + rnd() * 0.08)) / 10) * 10);
    current += step;
    last = last + (now - createdAt) / (bidCount + 1);
    const bidder = bidders.length > 1 ? bidders.filter((u) => u.id !== bids.at(-1)?.bidder_id)[Math.floor(rnd() * (bidders.length - 1))] : bidders[0];
    bids.push({ bidder_id: bidder.id, amount: current, created_at: isoAt(createdAt + Math.round(last)) });
  }
  return bids;
}

/** Up to two comments on every other auction, the first one sometimes answered by the seller a minute later. */
async function insertDemoComments(
  tx: DbOrTx,
  w: DemoWorld,
  i: number,
  auction: { id: number; sellerId: number; createdAt: number },
  bidders: DemoUser[],
): Promise<void> {
  const { rnd, now } = w;
  const { id, sellerId, createdAt } = auction;
  const commentCount = i % 2 === 0 ? Math.floor(rnd() * 3) : 0;
  for (let c = 0; c < commentCount; c++) {
    const author = pick(rnd, bidders);
    const at = createdAt + (now - createdAt) * ((c + 1) / (commentCount + 2));
    await insertComment(tx, { auction_id: id, user_id: author.id, content: pick(rnd, COMMENTS), created_at: isoAt(at) });
    if (c === 0 && rnd() < 0.6) {
      await insertComment(tx, { auction_id: id, user_id: sellerId, content: pick(rnd, SELLER_REPLIES), created_at: isoAt(at + 60_000) });
    }
  }
}
