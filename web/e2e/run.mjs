// Browser tests: playwright-core driving Debian's chromium (never a
// downloaded browser) against the real `chessplayx serve` with a temporary
// database and the built web app (web/dist). Screenshots go to
// web/e2e-artifacts/ (gitignored).
//
// Usage (from web/): npm run build && npm run e2e
// Environment:
//   CHESSPLAYX_BIN   the server binary (default ../target/release/chessplayx)
//   CHROMIUM         the browser (default /usr/bin/chromium)
//   E2E_ONLY         run only the tests whose name contains this text
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import {
  assert,
  assertSeen,
  boardCoords,
  clickMove,
  dragMove,
  glyphOn,
  idle,
  moveList,
  pieceOn,
  plies,
  typeMove,
  waitPiece,
  waitPlies,
} from './page.mjs';
import { gameUiTests } from './gameui.mjs';
import { homeTests } from './home.mjs';
import { layoutTests } from './layout.mjs';
import { promotionTests } from './promotion.mjs';
import { roomTests } from './rooms.mjs';
import { tourTests } from './tour.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '..');
const artifacts = path.join(web, 'e2e-artifacts');
mkdirSync(artifacts, { recursive: true });
const BIN = process.env.CHESSPLAYX_BIN ?? path.resolve(web, '../target/release/chessplayx');

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const tmp = mkdtempSync(path.join(tmpdir(), 'cpx-e2e-'));
const server = spawn(BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--db', path.join(tmp, 'e2e.sqlite'), '--web-dir', path.join(web, 'dist')], {
  stdio: ['ignore', 'inherit', 'inherit'],
});

/**
 * A TCP relay in front of the server that a test can cut: every connection
 * through it is destroyed and new ones refused until restored. A page
 * loaded from `relay.base` loses its WebSocket the way it would on a real
 * network drop, with no help from the app.
 */
async function startRelay() {
  const open = new Set();
  let cut = false;
  const srv = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const up = connect(port, '127.0.0.1');
    const pair = [client, up];
    pair.forEach((x) => open.add(x));
    client.pipe(up);
    up.pipe(client);
    const done = () => pair.forEach((x) => (x.destroy(), open.delete(x)));
    for (const x of pair) {
      x.on('error', done);
      x.on('close', done);
    }
  });
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const relay = {
    base: `http://127.0.0.1:${srv.address().port}`,
    cut() {
      cut = true;
      for (const x of open) x.destroy();
      open.clear();
    },
    restore() {
      cut = false;
    },
    close() {
      this.cut();
      srv.close();
    },
  };
  return relay;
}

async function waitForServer() {
  for (let i = 0; i < 150; i++) {
    try {
      const r = await fetch(`${base}/api/version`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer on ${base}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  // playwright gives every launch a fresh temporary --user-data-dir
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const errors = [];
/** Pages of the running test, for the evidence a failure leaves. */
let livePages = [];
let consoleLines = [];
async function newPage(opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 850 }, locale: 'en-US', ...opts });
  const page = await ctx.newPage();
  livePages.push(page);
  page.setDefaultTimeout(15000);
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  return page;
}
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

/**
 * A's room (no clock, A White) joined by B through the invite link; both
 * connected. B loads from `bBase` (a relay) and runs `bInit` first if given.
 */
async function onlinePair(game = 'chess', { bBase = base, bInit = null } = {}) {
  const a = await newPage();
  await a.goto(`${base}/?game=${game}`);
  await a.selectOption('#friend-clock', '0');
  await a.selectOption('#friend-color', 'white');
  await a.click('#create-room');
  await a.waitForSelector('#invite-link');
  const invite = await a.inputValue('#invite-link');
  const b = await newPage();
  if (bInit) await b.addInitScript(bInit);
  await b.goto(invite.replace(base, bBase));
  await b.waitForSelector('#connection.conn-open');
  await a.waitForSelector('#typed-move');
  return { a, b };
}

async function startLocal(page, variant, fen) {
  await page.goto(`${base}/?game=${variant}${fen ? `&fen=${encodeURIComponent(fen)}` : ''}`);
  await page.click('#start-local');
  await page.waitForSelector('#typed-move');
}

async function axe(page, name, { strict = false } = {}) {
  await page.addScriptTag({ path: path.join(web, 'node_modules/axe-core/axe.min.js') });
  const res = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  });
  const bad = strict ? res : res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(bad.length === 0, `${name}: axe violations ${JSON.stringify(bad)}`);
  return res.length;
}

const tests = [];
const test = (name, fn, { online = false } = {}) => tests.push({ name, fn, online });

// --- same device: one game to a finish in each game, with a reload in the middle
test('same device: chess to checkmate, reload in the middle', async () => {
  const page = await newPage();
  await startLocal(page, 'chess');
  await clickMove(page, 'f2', 'f3');
  await waitPlies(page, 1);
  await typeMove(page, 'e5');
  await page.reload();
  await waitPlies(page, 2);
  await typeMove(page, 'g4');
  await typeMove(page, 'Qh4#');
  await page.waitForSelector('.result');
  const text = await page.textContent('.result');
  assert(/Black wins/.test(text) && /checkmate/.test(text), `result: ${text}`);
  await shot(page, 'chess-checkmate');
  // a rematch on the same screen: a new room, both seats still held
  const first = page.url();
  await page.click('#rematch');
  await page.waitForFunction((u) => location.href !== u, first);
  await page.waitForSelector('#typed-move');
  assert((await plies(page)) === 0 && /Two players/.test(await page.textContent('.mode-line')), 'a fresh same-device game');
  await typeMove(page, 'e4');
  await typeMove(page, 'e5');
  // a draw both players agree to in the dialog, judged by the server
  await idle(page);
  await page.click('#draw');
  await page.waitForSelector('dialog.confirm[open]');
  await page.click('#dlg-yes');
  await page.waitForSelector('.result');
  assert(/^Draw\b/.test(await page.textContent('.result')) && /by agreement/.test(await page.textContent('.result')), 'draw by agreement');
  await page.goto(base);
  assert((await page.locator('.saved li').count()) === 2, 'both games listed');
  await page.context().close();
});

test('same device: atomic explosion ends the game (king blown up), reload in the middle', async () => {
  const page = await newPage();
  await startLocal(page, 'atomic');
  for (const m of ['g1f3', 'd7d5', 'f3e5']) await typeMove(page, m);
  await page.reload();
  await waitPlies(page, 3);
  await typeMove(page, 'a7a6');
  await clickMove(page, 'e5', 'f7');
  await waitPlies(page, 5);
  await page.waitForSelector('.explosion');
  const ex = await page.textContent('.explosion');
  assert(/♚/.test(ex) && /♘/.test(ex), `removed pieces shown: ${ex}`);
  await page.waitForSelector('.result');
  assert(/exploded|blown/.test(await page.textContent('.result')), 'king exploded reason');
  await shot(page, 'atomic-explosion');
  await page.context().close();
});

test('same device: horde, reload, a takeback both players allow, resignation', async () => {
  const page = await newPage();
  await startLocal(page, 'horde');
  await typeMove(page, 'e5');
  await typeMove(page, 'e6');
  await typeMove(page, 'd5');
  await page.reload();
  await waitPlies(page, 3);
  // a takeback on a shared screen: White asks, Black allows in the dialog, the server undoes White's move
  await idle(page);
  await page.click('#takeback');
  await page.waitForSelector('dialog.confirm[open]');
  await page.click('#dlg-yes');
  await waitPlies(page, 2);
  await idle(page);
  await page.click('#resign');
  await page.click('#dlg-yes');
  await page.waitForSelector('.result');
  assert(/Black wins/.test(await page.textContent('.result')), 'white resigned');
  await shot(page, 'horde');
  await page.context().close();
});

test('same device: xiangqi with a reload, step-through, resignation', async () => {
  const page = await newPage();
  await startLocal(page, 'xiangqi');
  await clickMove(page, 'h3', 'e3');
  await waitPlies(page, 1);
  assert((await page.textContent('ol.moves')).includes('C2=5'), 'WXF in the move list');
  await typeMove(page, 'h10g8');
  await page.reload();
  await waitPlies(page, 2);
  await typeMove(page, 'H2+3');
  await page.click('.nav button:first-child');
  await page.keyboard.press('ArrowRight');
  await shot(page, 'xiangqi-stepped');
  await page.click('.nav button:nth-child(4)');
  await page.click('#resign');
  await page.click('#dlg-yes');
  await page.waitForSelector('.result');
  assert(/Red wins/.test(await page.textContent('.result')), 'black resigned');
  await shot(page, 'xiangqi');
  await page.context().close();
});

test('same device: a draw claim appears only when the server says it is claimable', async () => {
  const page = await newPage();
  await startLocal(page, 'chess');
  const shuffle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
  for (const m of [...shuffle, ...shuffle.slice(0, 3)]) await typeMove(page, m);
  assert((await page.locator('#claim-threefold_repetition').count()) === 0, 'no claim before the third repetition');
  await typeMove(page, 'Ng8');
  await page.click('#claim-threefold_repetition');
  await page.waitForSelector('.result');
  assert(/Draw/.test(await page.textContent('.result')) && /threefold/.test(await page.textContent('.result')), 'claimed draw');
  await page.context().close();
});

test('board coordinates: 8×8 and Xiangqi, both orientations, line up with the pieces', async () => {
  const page = await newPage();
  const cases = [
    { game: 'chess', kings: { white: 'e1', black: 'e8' }, files: 'a b c d e f g h', ranks: '8 7 6 5 4 3 2 1' },
    { game: 'xiangqi', kings: { white: 'e1', black: 'e10' }, files: 'a b c d e f g h i', ranks: '10 9 8 7 6 5 4 3 2 1' },
  ];
  const rev = (t) => t.split(' ').toReversed().join(' ');
  for (const c of cases) {
    await startLocal(page, c.game);
    await page.waitForSelector('.round .board-host piece.k-piece.white');
    for (const [files, ranks] of [
      [c.files, c.ranks],
      [rev(c.files), rev(c.ranks)],
      [c.files, c.ranks],
    ]) {
      const got = await boardCoords(page, c.kings);
      assert(got.files === files && got.ranks === ranks, `${c.game} labels: files "${got.files}", ranks "${got.ranks}"; want "${files}", "${ranks}"`);
      assert(got.ordered, `${c.game}: labels in screen order`);
      assert(got.aligned.white && got.aligned.black, `${c.game}: labels line up with the kings ${JSON.stringify(got.aligned)}`);
      if (files !== c.files) await shot(page, `coords-${c.game}-flipped`);
      await page.click('#flip');
    }
  }
  await page.context().close();
});

test('drag and drop: an illegal drop snaps back, legal drags play (8×8 and Xiangqi)', async () => {
  const page = await newPage();
  await startLocal(page, 'chess');
  await idle(page);
  await dragMove(page, 'e2', 'e5');
  await waitPiece(page, 'e2', 'white p-piece');
  assert((await plies(page)) === 0, 'illegal drop played nothing');
  await dragMove(page, 'e2', 'e4');
  await waitPlies(page, 1);
  await idle(page);
  await dragMove(page, 'g8', 'f6');
  await waitPlies(page, 2);
  assert((await moveList(page)) === 'e4 Nf6', 'SAN of the dragged moves');
  assert((await pieceOn(page, 'f6')) === 'black n-piece' && (await pieceOn(page, 'g8')) === null, 'the knight stands on f6');
  await startLocal(page, 'xiangqi');
  await idle(page);
  await dragMove(page, 'h3', 'e3');
  await waitPlies(page, 1);
  await idle(page);
  await dragMove(page, 'b10', 'c8'); // rank 10 on the board's top edge
  await waitPlies(page, 2);
  assert((await moveList(page)) === 'C2=5 H2+3', 'WXF of the dragged moves');
  assert((await pieceOn(page, 'c8')) === 'black n-piece' && (await pieceOn(page, 'e3')) === 'white c-piece', 'the pieces stand where they were dropped');
  await page.context().close();
});

test('keyboard: arrows step through the moves, Home and End jump, the board follows, f flips it with its bars', async () => {
  const page = await newPage();
  await startLocal(page, 'chess');
  await clickMove(page, 'e2', 'e4');
  await waitPlies(page, 1);
  for (const m of ['e5', 'Nf3', 'Nc6']) await typeMove(page, m);
  const current = () => page.evaluate(() => document.querySelector('ol.moves .current')?.textContent ?? null);
  // arrows typed into the move field are the field's
  await page.focus('#typed-move');
  await page.keyboard.press('ArrowLeft');
  assert((await current()) === 'Nc6', 'arrows in the move field do not step');
  // focus on the page itself, as after a move made on the board
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.keyboard.press('ArrowLeft');
  await waitPiece(page, 'b8', 'black n-piece');
  await waitPiece(page, 'f3', 'white n-piece');
  assert((await current()) === 'Nf3', `one back: ${await current()}`);
  // the turn line speaks of the position shown, not of the live game (White to move there)
  await page.waitForFunction(() => /Black to move/.test(document.querySelector('.turn')?.textContent ?? ''));
  await assertSeen(page, '.turn', 'the turn line');
  assert((await page.locator('#typed-move').count()) === 0, 'no typing while looking at an earlier position');
  await page.keyboard.press('ArrowLeft');
  await waitPiece(page, 'g1', 'white n-piece');
  assert((await current()) === 'e5', `two back: ${await current()}`);
  await page.keyboard.press('Home');
  await waitPiece(page, 'e2', 'white p-piece');
  await waitPiece(page, 'e7', 'black p-piece');
  assert((await current()) === null, 'start position: no move marked');
  await page.keyboard.press('ArrowLeft'); // nothing before the start
  await page.keyboard.press('ArrowRight');
  await waitPiece(page, 'e4', 'white p-piece');
  assert((await pieceOn(page, 'e7')) === 'black p-piece' && (await current()) === 'e4', `after 1.e4: ${await current()}, e7 ${await pieceOn(page, 'e7')}`);
  await page.keyboard.press('End');
  await waitPiece(page, 'c6', 'black n-piece');
  await page.waitForFunction(() => /White to move/.test(document.querySelector('.turn')?.textContent ?? ''));
  await page.waitForSelector('#typed-move');
  await page.keyboard.press('ArrowRight'); // nothing after the live position
  assert((await current()) === 'Nc6', 'End is the live position');
  await page.keyboard.press('f');
  await page.waitForSelector('.cg-wrap.orientation-black');
  await page.waitForFunction(() => document.querySelector('.pbar-bottom .pname')?.textContent === 'Black');
  await page.keyboard.press('f');
  await page.waitForSelector('.cg-wrap.orientation-white');
  await typeMove(page, 'Bb5');
  await page.context().close();
});

test('xiangqi pieces: the Western-letter setting redraws the pieces and is remembered', async () => {
  const page = await newPage();
  await startLocal(page, 'xiangqi');
  await page.waitForSelector('.board-host cg-board piece');
  const seen = async () => [await glyphOn(page, 'a1'), await glyphOn(page, 'b10'), await glyphOn(page, 'e1'), await glyphOn(page, 'h8')].join(' ');
  assert((await seen()) === '俥 馬 帥 砲', `Chinese characters by default: ${await seen()}`);
  await page.click('#settings');
  await page.selectOption('#glyphs', 'western');
  await page.waitForFunction(() => (document.getElementById('piece-css')?.textContent ?? '').includes(encodeURIComponent('>R</text>')));
  assert((await seen()) === 'R H K C', `Western letters: ${await seen()}`);
  await shot(page, 'xiangqi-western-glyphs');
  await page.reload();
  await page.waitForSelector('.board-host cg-board piece');
  assert((await page.inputValue('#glyphs')) === 'western', 'the setting survives a reload');
  assert((await seen()) === 'R H K C', `still letters after the reload: ${await seen()}`);
  await page.click('#settings');
  await page.selectOption('#glyphs', 'native');
  await page.reload();
  await page.waitForSelector('.board-host cg-board piece');
  assert((await seen()) === '俥 馬 帥 砲', `back to characters: ${await seen()}`);
  await page.context().close();
});

test('promotion picker: knight', async () => {
  const page = await newPage();
  await startLocal(page, 'chess');
  for (const m of ['a2a4', 'b7b5', 'a4b5', 'a7a6', 'b5a6', 'c8b7', 'a6b7', 'e7e6']) await typeMove(page, m);
  await clickMove(page, 'b7', 'a8');
  await page.waitForSelector('.promotion-picker');
  await shot(page, 'promotion-picker');
  // each choice shows White's piece picture (not a blank box)
  const choices = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.promotion-picker button.promo'), (b) => {
      const r = b.getBoundingClientRect();
      return { cls: b.className, img: getComputedStyle(b).backgroundImage, w: r.width, h: r.height };
    }),
  );
  assert(choices.length === 4, `four choices: ${choices.length}`);
  for (const c of choices) {
    assert(c.cls.includes('white'), `a choice of White's pieces: ${c.cls}`);
    assert(c.img.startsWith('url(') && c.w > 20 && c.h > 20, `a piece picture in ${c.cls}: ${c.img.slice(0, 40)} ${c.w}×${c.h}`);
  }
  assert(new Set(choices.map((c) => c.img)).size === 4, 'four different pictures');
  await page.click('.promotion-picker .promo-n');
  await waitPlies(page, 9);
  assert((await page.textContent('ol.moves')).includes('bxa8=N'), 'underpromotion played');
  await page.context().close();
});

test('xiangqi perpetual check warning', async () => {
  const page = await newPage();
  const moves = ['h9h10', 'f10f9', 'h10h9', 'f9f10', 'h9h10', 'f10f9', 'h10h9', 'f9f10', 'h9h10', 'f10f9', 'h10h9', 'f9f10'];
  await startLocal(page, 'xiangqi', '5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1');
  // the streak box only while a streak exists; the draw counters in a details line
  assert((await page.locator('.streaks').count()) === 0, 'no streak box before the first check');
  assert(/Plies: 0 in total/.test(await page.textContent('.xq-counters')), 'the counters line');
  for (const m of moves) await typeMove(page, m);
  // one chariot checking: the server's limit is 6 checks in a row, the 7th loses
  const streak = await page.textContent('.streaks');
  assert(/Red has checked 6 times in a row: a 7th check loses\./.test(streak), `check streak in words: ${streak}`);
  await assertSeen(page, '.streaks p', 'the streak line');
  await page.fill('#typed-move', 'h9h10');
  await page.press('#typed-move', 'Enter');
  await page.waitForSelector('dialog.confirm[open]');
  const warning = await page.textContent('dialog.confirm p');
  assert(/perpetual check \(check number 7 in a row, 6 allowed\)/.test(warning), `the warning says why in words: ${warning}`);
  await shot(page, 'xiangqi-warning');
  await page.click('#dlg-no');
  assert((await plies(page)) === 12, 'cancelled move not played');
  await page.fill('#typed-move', 'h9h10');
  await page.press('#typed-move', 'Enter');
  await page.click('#dlg-yes');
  await page.waitForSelector('.result');
  assert(/perpetual check/.test(await page.textContent('.result')), 'lost by perpetual check');
  await page.context().close();
});

test('against the computer, level 1', async () => {
  const page = await newPage();
  await page.goto(`${base}/?game=chess`);
  await page.selectOption('#ai-level', '1');
  await page.selectOption('#ai-color', 'white');
  await page.click('#start-ai');
  await page.waitForSelector('#typed-move');
  await typeMove(page, 'e4');
  await waitPlies(page, 2);
  await typeMove(page, 'd4');
  await waitPlies(page, 4);
  await idle(page);
  await page.click('#takeback');
  await waitPlies(page, 2);
  await shot(page, 'ai-level-1');
  await page.context().close();
});

test('against the computer in Horde, Atomic and Xiangqi: the engine answers as Black, then as White', async () => {
  for (const [game, first] of [
    ['horde', 'e4e5'],
    ['atomic', 'e2e4'],
    ['xiangqi', 'h3e3'],
  ]) {
    const page = await newPage();
    await page.goto(`${base}/?game=${game}`);
    await page.selectOption('#ai-level', '3');
    await page.selectOption('#ai-color', 'white');
    await page.click('#start-ai');
    await page.waitForSelector('#typed-move');
    await typeMove(page, first);
    await waitPlies(page, 2);
    await idle(page);
    assert((await page.locator('.notice').count()) === 0, `${game}: no error notice`);
    // a rematch swaps colours: the engine opens as White
    await page.click('#resign');
    await page.click('#dlg-yes');
    await page.waitForSelector('.result');
    await page.click('#rematch');
    await waitPlies(page, 1);
    await idle(page);
    await page.waitForSelector('#typed-move');
    await page.context().close();
  }
});

test(
  'online: invite link, two players and a spectator',
  async () => {
    const a = await newPage();
    await a.goto(`${base}/?game=chess`);
    await a.selectOption('#friend-clock', '0');
    await a.selectOption('#friend-color', 'white');
    await a.click('#create-room');
    await a.waitForSelector('#invite-link');
    const invite = await a.inputValue('#invite-link');
    const spectate = await a.inputValue('#spectate-link');
    await shot(a, 'online-waiting');
    await axe(a, 'online room');
    const b = await newPage();
    await b.goto(invite);
    await b.waitForSelector('#connection.conn-open');
    const c = await newPage();
    await c.goto(spectate);
    await c.waitForSelector('text=You are watching');
    await a.waitForSelector('#typed-move');
    await clickMove(a, 'e2', 'e4');
    await waitPlies(b, 1);
    await typeMove(b, 'e5');
    await waitPlies(a, 2);
    await waitPlies(c, 2);
    // B reloads: the seat token (not the spent invite) brings it back
    await b.reload();
    await waitPlies(b, 2);
    await b.waitForSelector('text=You play Black');
    // a takeback is an offer online: A asks, B allows, both plies go
    await a.click('#takeback');
    await b.click('#takeback-accept');
    for (const p of [a, b, c]) await waitPlies(p, 0);
    await typeMove(a, 'd4');
    await waitPlies(b, 1);
    await typeMove(b, 'd5');
    await waitPlies(c, 2);
    await a.click('#draw-offer');
    await b.waitForSelector('#draw-accept');
    await b.click('#draw-decline');
    await b.click('#resign');
    await b.click('#dlg-yes');
    for (const p of [a, b, c]) await p.waitForSelector('.result');
    assert(/White wins/.test(await c.textContent('.result')), 'spectator sees the result');
    await shot(a, 'online-a');
    await shot(b, 'online-b');
    await shot(c, 'online-spectator');
    // a rematch takes both players to the new room, colours swapped
    const oldUrl = a.url();
    await a.click('#rematch');
    await b.click('#rematch-accept');
    for (const p of [a, b]) await p.waitForFunction((u) => location.href !== u && /\/r\/\w+$/.test(location.pathname), oldUrl);
    assert(a.url() === b.url(), `both players in the same new room: ${a.url()} ${b.url()}`);
    await a.waitForSelector('text=You play Black');
    await b.waitForSelector('text=You play White');
    await b.waitForSelector('#typed-move');
    await typeMove(b, 'e4');
    await waitPlies(a, 1);
    for (const p of [a, b, c]) await p.context().close();
  },
  { online: true },
);

test(
  'online: the connection drops, the indicator says so, the reconnection replays the opponent\'s move',
  async () => {
    const relay = await startRelay();
    try {
      // counts B's connection attempts (the app's own WebSocket, only counted)
      const bInit = () => {
        const Native = window.WebSocket;
        window.e2eSocketAttempts = 0;
        window.WebSocket = class extends Native {
          constructor(...args) {
            super(...args);
            window.e2eSocketAttempts++;
          }
        };
      };
      const { a, b } = await onlinePair('chess', { bBase: relay.base, bInit });
      await clickMove(a, 'e2', 'e4');
      await waitPlies(b, 1);
      await typeMove(b, 'e5');
      await waitPlies(a, 2);
      // a mark that a reload would wipe: the reconnection must happen in this page
      await b.evaluate(() => (window.e2eSameDocument = true));
      const attempts = await b.evaluate(() => window.e2eSocketAttempts);
      // the network goes: B's connections are cut and the browser knows it is offline
      relay.cut();
      await b.context().setOffline(true);
      await b.waitForSelector('#connection:not(.conn-open)');
      assert(/Connection lost|Connecting/.test(await b.textContent('#connection')), `indicator: ${await b.textContent('#connection')}`);
      assert((await b.getAttribute('.round', 'aria-busy')) === 'true', 'the board waits while disconnected');
      await a.waitForSelector('text=Your opponent has disconnected');
      // A plays while B is away
      await typeMove(a, 'Nf3');
      await shot(b, 'online-offline');
      assert((await plies(b)) === 2, 'B cannot see the move while offline');
      // two reconnection attempts failed (0.5 s and 1 s into the backoff); the next would be 2 s away
      await b.waitForFunction((n) => window.e2eSocketAttempts >= n + 2 && !document.querySelector('#connection.conn-connecting'), attempts, { polling: 20 });
      // the network comes back: the socket reconnects at once with its last v and gets the missed move
      const back = Date.now();
      relay.restore();
      await b.context().setOffline(false);
      await b.waitForSelector('#connection.conn-open');
      await waitPlies(b, 3);
      const took = Date.now() - back;
      assert((await moveList(b)) === 'e4 e5 Nf3', `B got the missed move: ${await moveList(b)}`);
      assert(await b.evaluate(() => window.e2eSameDocument === true), 'no reload: the socket reconnected by itself');
      assert(took < 1500, `reconnected as soon as the browser was back online (${took} ms), not at the end of the backoff`);
      await a.waitForFunction(() => !/opponent has disconnected/.test(document.querySelector('main')?.textContent ?? ''));
      await typeMove(b, 'Nc6');
      await waitPlies(a, 4);
      for (const p of [a, b]) await p.context().close();
    } finally {
      relay.close();
    }
  },
  { online: true },
);

test(
  'online: a draw offer accepted ends the game as a draw on both pages',
  async () => {
    const { a, b } = await onlinePair('xiangqi');
    await typeMove(a, 'h3e3');
    await waitPlies(b, 1);
    await typeMove(b, 'h10g8');
    await waitPlies(a, 2);
    await b.click('#draw-offer');
    await a.waitForSelector('#draw-accept');
    await a.click('#draw-accept');
    for (const p of [a, b]) {
      await p.waitForSelector('.result');
      const text = await p.textContent('.result');
      assert(/^Draw\b/.test(text) && /by agreement/.test(text), `result: ${text}`);
      assert((await p.locator('#typed-move').count()) === 0, 'no more moves after the draw');
    }
    await shot(a, 'online-draw');
    for (const p of [a, b]) await p.context().close();
  },
  { online: true },
);

test(
  'lobby: a public room is listed with plural-correct counts and can be joined',
  async () => {
    const watcher = await newPage();
    await watcher.goto(base);
    await watcher.waitForFunction(() => /waiting/.test(document.querySelector('.lobby-counts')?.textContent ?? ''));
    const a = await newPage();
    await a.goto(`${base}/?game=atomic`);
    await a.check('#friend-public');
    await a.click('#create-room');
    await a.waitForSelector('#invite-link');
    await watcher.waitForSelector('.open-rooms a.btn');
    const counts = await watcher.textContent('.lobby-counts');
    assert(/\b1 room waiting\b/.test(counts), `singular form: ${counts}`);
    await watcher.selectOption('#lang', 'pl');
    await watcher.waitForFunction(() => /pokój czeka/.test(document.querySelector('.lobby-counts')?.textContent ?? ''));
    await shot(watcher, 'lobby-pl');
    await watcher.click('.open-rooms a.btn');
    await watcher.waitForSelector('#connection.conn-open');
    await a.waitForSelector('#abort');
    for (const p of [a, watcher]) await p.context().close();
  },
  { online: true },
);

test('same device with a clock: runs after both sides moved, survives a reload', async () => {
  const page = await newPage();
  await page.goto(`${base}/?game=chess`);
  await page.selectOption('#local-clock', '2');
  await page.click('#start-local');
  await page.waitForSelector('.clock');
  assert((await page.textContent('.clock-white')) === '3:00', 'initial clock 3:00');
  await typeMove(page, 'e4');
  await typeMove(page, 'e5');
  await page.waitForSelector('.clock-white.running');
  await page.waitForTimeout(1500);
  await page.reload();
  await page.waitForSelector('.clock-white.running');
  const left = await page.textContent('.clock-white');
  assert(/^2:5\d$/.test(left), `white's clock ran: ${left}`);
  await typeMove(page, 'Nf3');
  await page.waitForSelector('.clock-black.running');
  assert(/^(3:00|2:5[89])$/.test(await page.textContent('.clock-black')), 'black still has its time');
  await page.context().close();
});

roomTests({ test, newPage, base, shot, startLocal });
promotionTests({ test, newPage, base, shot, axe });
layoutTests({ test, newPage, base, shot, startLocal, axe });
gameUiTests({ test, newPage, base, shot, startLocal, axe, onlinePair });
homeTests({ test, newPage, base, shot, startLocal, axe });
tourTests({ test, newPage, base, shot, startLocal, axe });
(await import('./analysis.mjs')).analysisTests({ test, newPage, base, shot, axe });

test('languages: switch to each, remembered after reload, plural lobby text', async () => {
  const page = await newPage();
  await page.goto(base);
  const seen = new Set();
  for (const l of ['vi', 'pl', 'pt', 'en']) {
    await page.selectOption('#lang', l);
    await page.waitForFunction((want) => document.documentElement.lang === want, l);
    const title = await page.textContent('h1');
    seen.add(title);
    await shot(page, `lang-${l}`);
  }
  assert(seen.size === 4, `four different titles: ${[...seen]}`);
  await page.selectOption('#lang', 'pl');
  await page.reload();
  assert((await page.evaluate(() => document.documentElement.lang)) === 'pl', 'language remembered');
  await page.context().close();
});

let failed = 0;
let passed = 0;
let skipped = 0;
try {
  await waitForServer();
  for (const t of tests) {
    if (process.env.E2E_ONLY && !t.name.includes(process.env.E2E_ONLY)) continue;
    const started = Date.now();
    livePages = [];
    consoleLines = [];
    try {
      await t.fn();
      passed++;
      console.log(`ok   ${t.name} (${Date.now() - started} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${e.message}`);
      if (consoleLines.length) console.log(`     console:\n       ${consoleLines.slice(-40).join('\n       ')}`);
      // what each page showed, in the log (CI keeps no files) and as a screenshot
      for (const [i, page] of livePages.entries()) {
        if (page.isClosed()) continue;
        const text = await page.locator('main').innerText().catch(() => '(no text)');
        const dbg = await page.evaluate(() => JSON.stringify({ busy: document.querySelector('.round')?.getAttribute('aria-busy'), typed: document.querySelector('#typed-move')?.value, active: document.activeElement?.id || document.activeElement?.tagName })).catch(() => '');
        console.log(`     state ${dbg}`);
        console.log(`     page ${i} at ${page.url()}:\n       ${text.replace(/\s*\n\s*/g, ' | ').slice(0, 1500)}`);
        await page.screenshot({ path: path.join(artifacts, `FAIL-${t.name.replace(/\W+/g, '-')}-${i}.png`), fullPage: true }).catch(() => undefined);
      }
    }
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
if (errors.length) {
  console.log(`page errors:\n  ${errors.join('\n  ')}`);
  failed++;
}
console.log(`e2e: ${passed} passed, ${failed} failed, ${skipped} skipped; screenshots in ${artifacts}`);
process.exit(failed ? 1 : 0);
