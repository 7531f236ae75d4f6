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
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

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

function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

/** The move list as text, one space between moves. */
const moveList = (page) => page.evaluate(() => Array.from(document.querySelectorAll('ol.moves li'), (li) => li.textContent.trim()).join(' '));

/** Number of moves in the move list. */
const plies = (page) => page.locator('ol.moves li').count();
async function waitPlies(page, n, atLeast = false) {
  try {
    await page.waitForFunction(
      ([want, more]) => {
        const have = document.querySelectorAll('ol.moves li').length;
        return have === want || (more && have > want);
      },
      [n, atLeast],
      { timeout: 20000, polling: 50 },
    );
  } catch (e) {
    throw new Error(`waited for ${atLeast ? 'at least ' : ''}${n} moves in the list, it shows ${await plies(page).catch(() => '?')}: ${e.message}`, { cause: e });
  }
}

/** Waits until the shown position is not waiting on the server. */
const idle = (page) => page.waitForSelector('.round[aria-busy="false"]', { timeout: 20000 });

/** Types a move in the keyboard field and waits for it to appear. */
async function typeMove(page, text) {
  await idle(page);
  const before = await plies(page);
  await page.fill('#typed-move', text);
  await page.press('#typed-move', 'Enter');
  // at least: against the computer its reply may land before the list is read
  await waitPlies(page, before + 1, true);
}

/** Clicks a square of the board (orientation from the wrap's class). */
async function clickSquare(page, sq) {
  const wrap = page.locator('.board-host .cg-wrap').first();
  const box = await wrap.boundingBox();
  const xq = await page.locator('.board-host.xq').count();
  const [w, hgt] = xq ? [9, 10] : [8, 8];
  const white = await wrap.evaluate((el) => el.classList.contains('orientation-white'));
  const file = sq.charCodeAt(0) - 97;
  const rank = Number(sq.slice(1)) - 1;
  const fx = white ? file : w - 1 - file;
  const fy = white ? hgt - 1 - rank : rank;
  await page.mouse.click(box.x + ((fx + 0.5) * box.width) / w, box.y + ((fy + 0.5) * box.height) / hgt);
}
async function clickMove(page, from, to) {
  await clickSquare(page, from);
  await clickSquare(page, to);
}

/** Screen centre of a square (orientation from the wrap's class). */
async function squareCenter(page, sq) {
  const board = page.locator('.board-host cg-board').first();
  const box = await board.boundingBox();
  const xq = await page.locator('.board-host.xq').count();
  const [w, hgt] = xq ? [9, 10] : [8, 8];
  const white = await page.locator('.board-host .cg-wrap').first().evaluate((el) => el.classList.contains('orientation-white'));
  const file = sq.charCodeAt(0) - 97;
  const rank = Number(sq.slice(1)) - 1;
  const fx = white ? file : w - 1 - file;
  const fy = white ? hgt - 1 - rank : rank;
  return { x: box.x + ((fx + 0.5) * box.width) / w, y: box.y + ((fy + 0.5) * box.height) / hgt };
}

/** Drags the piece on `from` to `to` with the mouse (down, moves, up): no clicks. */
async function dragMove(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

/** The piece chessgroundx shows on a square as `colour role` (`white k-piece`), or null; rank 10 is ':' there. */
const pieceOn = (page, sq) =>
  page.evaluate((key) => {
    const p = Array.from(document.querySelectorAll('.board-host cg-board piece')).find((el) => el.cgKey === key && !el.classList.contains('ghost'));
    return p ? Array.from(p.classList).filter((c) => c === 'white' || c === 'black' || c.endsWith('-piece')).join(' ') : null;
  }, sq.replace(/10$/, ':'));

/** Waits until a square shows this piece (class list as chessgroundx writes it). */
const waitPiece = (page, sq, cls) =>
  page.waitForFunction(
    ([key, want]) => Array.from(document.querySelectorAll('.board-host cg-board piece')).some((el) => el.cgKey === key && want.split(' ').every((c) => el.classList.contains(c))),
    [sq.replace(/10$/, ':'), cls],
    { polling: 50 },
  );

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

/**
 * What the player sees of an element: its box inside the viewport, not
 * hidden, and its text colour against the first opaque background behind
 * it (WCAG contrast ratio).
 */
async function looks(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { ok: false, why: `${sel} missing` };
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
    let bgEl = el;
    let bg = [255, 255, 255, 1];
    while (bgEl) {
      const c = rgb(getComputedStyle(bgEl).backgroundColor);
      if (c.length >= 3 && (c[3] ?? 1) > 0.5) {
        bg = c;
        break;
      }
      bgEl = bgEl.parentElement;
    }
    const lum = ([r0, g0, b0]) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r0) + 0.7152 * f(g0) + 0.0722 * f(b0);
    };
    const [l1, l2] = [lum(rgb(cs.color)), lum(bg)].sort((a, b) => b - a);
    const contrast = (l1 + 0.05) / (l2 + 0.05);
    const inView = r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
    const visible = cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0.5;
    return { ok: inView && visible && contrast >= 3, inView, visible, contrast, color: cs.color, text: el.textContent.trim() };
  }, selector);
}
async function assertSeen(page, sel, what) {
  const s = await looks(page, sel);
  assert(s.ok, `${what} is drawn (${JSON.stringify(s)})`);
  return s;
}

/** The pieces drawn on the board: inside it, with a picture, as `colour role@key`. */
const drawnPieces = (page) =>
  page.evaluate(() => {
    const board = document.querySelector('.board-host cg-board');
    const b = board.getBoundingClientRect();
    return Array.from(board.querySelectorAll('piece'))
      .filter((p) => !p.classList.contains('ghost'))
      .filter((p) => {
        const r = p.getBoundingClientRect();
        const img = getComputedStyle(p).backgroundImage;
        return r.width > 4 && r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && img && img !== 'none';
      })
      .map((p) => `${Array.from(p.classList).filter((c) => c === 'white' || c === 'black' || c.endsWith('-piece')).join(' ')}@${p.cgKey}`)
      .sort();
  });

/** Clicks the export button and returns the downloaded text. */
async function exported(page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  return readFileSync(await dl.path(), 'utf8');
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
  await page.goto(base);
  assert((await page.locator('.saved li').count()) >= 1, 'saved game listed');
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

/**
 * The game board's coordinate labels in DOM order, whether the DOM order is
 * the screen order (files left to right, ranks top to bottom), and for each
 * king whether the labels of its square (given) line up with it on screen.
 */
async function boardCoords(page, kingSquares) {
  return page.evaluate((squares) => {
    const host = document.querySelector('.round .board-host');
    const center = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    };
    const spans = (cls) => Array.from(host.querySelectorAll(`.${cls} span`));
    const files = spans('coords-files');
    const ranks = spans('coords-ranks');
    const ordered =
      files.every((s, i) => i === 0 || center(s).x > center(files[i - 1]).x) && ranks.every((s, i) => i === 0 || center(s).y > center(ranks[i - 1]).y);
    const aligned = {};
    for (const [color, sq] of Object.entries(squares)) {
      const king = center(host.querySelector(`piece.k-piece.${color}`));
      const f = center(files.find((s) => s.textContent === sq[0]));
      const r = center(ranks.find((s) => s.textContent === sq.slice(1)));
      aligned[color] = Math.abs(f.x - king.x) < 2 && Math.abs(r.y - king.y) < 2;
    }
    return { files: files.map((s) => s.textContent).join(' '), ranks: ranks.map((s) => s.textContent).join(' '), ordered, aligned };
  }, kingSquares);
}

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

test('keyboard: arrows step through the moves, Home and End jump, the board follows', async () => {
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
  await typeMove(page, 'Bb5');
  await page.context().close();
});

/** The text drawn on the Xiangqi piece of a square (from its background image), or null. */
const glyphOn = (page, sq) =>
  page.evaluate((key) => {
    const p = Array.from(document.querySelectorAll('.board-host cg-board piece')).find((el) => el.cgKey === key);
    const m = p && /<text[^>]*>([^<]*)<\/text>/.exec(decodeURIComponent(getComputedStyle(p).backgroundImage));
    return m ? m[1] : null;
  }, sq.replace(/10$/, ':'));

test('xiangqi pieces: the Western-letter setting redraws the pieces and is remembered', async () => {
  const page = await newPage();
  await startLocal(page, 'xiangqi');
  await page.waitForSelector('.board-host cg-board piece');
  const seen = async () => [await glyphOn(page, 'a1'), await glyphOn(page, 'b10'), await glyphOn(page, 'e1'), await glyphOn(page, 'h8')].join(' ');
  assert((await seen()) === '俥 馬 帥 砲', `Chinese characters by default: ${await seen()}`);
  await page.selectOption('#glyphs', 'western');
  await page.waitForFunction(() => (document.getElementById('piece-css')?.textContent ?? '').includes(encodeURIComponent('>R</text>')));
  assert((await seen()) === 'R H K C', `Western letters: ${await seen()}`);
  await shot(page, 'xiangqi-western-glyphs');
  await page.reload();
  await page.waitForSelector('.board-host cg-board piece');
  assert((await page.inputValue('#glyphs')) === 'western', 'the setting survives a reload');
  assert((await seen()) === 'R H K C', `still letters after the reload: ${await seen()}`);
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
  for (const m of moves) await typeMove(page, m);
  assert((await page.textContent('.streaks')).match(/checks \d+ of \d+/), 'check streak shown');
  await page.fill('#typed-move', 'h9h10');
  await page.press('#typed-move', 'Enter');
  await page.waitForSelector('dialog.confirm[open]');
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

const LONE_KING = '4k3/8/8/8/8/8/8/R3K3 w - - 0 1';

/**
 * The end of a flag-fall game against a lone king, on one page: the server's
 * verdict drawn (a draw, White's clock at zero in the low-time colour), the
 * three pieces on the board, and the export with the result and the moves.
 */
async function flagDrawSeen(page, sans, name) {
  await page.waitForSelector('.result', { timeout: 30000 });
  const text = await page.textContent('.result');
  assert(/^Draw\b/.test(text) && /could no longer win/.test(text), `${name}: the server's verdict: ${text}`);
  await assertSeen(page, '.result', `${name}: the result`);
  const clock = await assertSeen(page, '.clock-white', `${name}: White's clock`);
  assert(clock.text === '0.0', `${name}: White's clock ran out: ${clock.text}`);
  const [r, g] = clock.color.match(/\d+/g).map(Number);
  assert(r > 150 && g < 100, `${name}: the empty clock is drawn red (${clock.color})`);
  const pieces = await drawnPieces(page);
  assert(pieces.length === 3 && pieces.some((p) => p.startsWith('white r-piece')) && pieces.some((p) => p.startsWith('black k-piece')), `${name}: pieces drawn: ${pieces}`);
  assert((await page.locator('#typed-move').count()) === 0, `${name}: no moves after the end`);
  const pgn = await exported(page);
  assert(/\[Result "1\/2-1\/2"\]/.test(pgn), `${name}: export result: ${pgn}`);
  assert(/\[FEN "4k3\/8\/8\/8\/8\/8\/8\/R3K3 w - - 0 1"\]/.test(pgn), `${name}: export start position: ${pgn}`);
  for (const san of sans) assert(pgn.includes(san), `${name}: export has ${san}: ${pgn}`);
}

/** Opens the "continue on another device" link in a fresh browser context (another device: no localStorage). */
async function continueElsewhere(page) {
  const link = await page.inputValue('#continue-link');
  assert(/\/r\/[\w-]+#t=[\w-]+/.test(link), `continue link carries the tokens in the fragment: ${link}`);
  const other = await newPage();
  const seenPaths = [];
  other.on('request', (r) => seenPaths.push(r.url()));
  await other.goto(link);
  await other.waitForSelector('#connection.conn-open');
  assert(!other.url().includes('#t='), `the tokens leave the address bar: ${other.url()}`);
  assert(seenPaths.every((u) => !u.includes(link.split('#t=')[1].split(',')[0]) || u.includes('/ws/')), 'the tokens go only to the room socket');
  return other;
}

test('same device, 15 s clock, from a FEN: reload, continue on another device, a flag against a lone king is a draw, export', async () => {
  const page = await newPage();
  await page.goto(`${base}/?game=chess&fen=${encodeURIComponent(LONE_KING)}`);
  await page.selectOption('#local-clock', '7');
  await page.click('#start-local');
  await page.waitForSelector('#typed-move');
  assert((await page.textContent('.clock-white')) === '0:15', `a 15 s clock: ${await page.textContent('.clock-white')}`);
  assert((await page.locator('.mode-line').textContent()).includes('Two players'), 'a same-device game');
  await typeMove(page, 'Ra2');
  await typeMove(page, 'Kd7');
  await page.waitForSelector('.clock-white.running');
  await page.reload();
  await waitPlies(page, 2);
  await page.waitForSelector('.clock-white.running');
  const left = await page.textContent('.clock-white');
  assert(/^(0:1[0-4]|\d\.\d)$/.test(left), `White's clock kept running across the reload: ${left}`);
  await assertSeen(page, '.clock-white', 'the running clock');
  await page.goto(base);
  const saved = await page.textContent('.saved li');
  assert(/Chess · two players · 1 move\b/.test(saved), `saved games count full moves: ${saved}`);
  await page.click('.saved li a');
  await waitPlies(page, 2);
  const other = await continueElsewhere(page);
  await waitPlies(other, 2);
  assert((await moveList(other)) === 'Ra2 Kd7', `the other device shows the game: ${await moveList(other)}`);
  await other.waitForSelector('#typed-move'); // and holds both seats
  await flagDrawSeen(page, ['Ra2', 'Kd7'], 'same device');
  await flagDrawSeen(other, ['Ra2', 'Kd7'], 'other device');
  await shot(page, 'local-flag-draw');
  // a spectator may download it too
  const id = new URL(page.url()).pathname.split('/').pop();
  const watcher = await newPage();
  await watcher.goto(`${base}/r/${id}`);
  await watcher.waitForSelector('.result');
  assert(/\[Result "1\/2-1\/2"\]/.test(await exported(watcher)), 'spectator export');
  for (const p of [page, other, watcher]) await p.context().close();
});

test('against the computer, 15 s clock, from a FEN: reload, continue on another device, a flag against a lone king is a draw, export', async () => {
  const page = await newPage();
  await page.goto(`${base}/?game=chess&fen=${encodeURIComponent(LONE_KING)}`);
  await page.selectOption('#ai-level', '1');
  await page.selectOption('#ai-color', 'white');
  await page.selectOption('#ai-clock', '7');
  await page.click('#start-ai');
  await page.waitForSelector('#typed-move');
  await typeMove(page, 'Ra2');
  await waitPlies(page, 2);
  await page.waitForSelector('.clock-white.running');
  const sans = (await moveList(page)).split(' ');
  await page.reload();
  await waitPlies(page, 2);
  await page.waitForSelector('.clock-white.running');
  assert((await page.locator('.mode-line').textContent()).includes('level 1'), 'a computer game');
  const other = await continueElsewhere(page);
  await waitPlies(other, 2);
  await flagDrawSeen(page, sans, 'computer game');
  await flagDrawSeen(other, sans, 'computer game, other device');
  await shot(page, 'ai-flag-draw');
  for (const p of [page, other]) await p.context().close();
});

test('a game from a FEN numbers its moves from the FEN; the footer version has no doubled v', async () => {
  const page = await newPage();
  await startLocal(page, 'chess', '4k3/8/8/8/8/8/8/R3K3 b - - 0 23');
  await typeMove(page, 'Kd7');
  await typeMove(page, 'Ra7+');
  const items = await page.evaluate(() => Array.from(document.querySelectorAll('ol.moves li'), (li) => ({ value: li.value, cls: li.className, text: li.textContent.trim() })));
  assert(items[0]?.value === 23 && items[0].cls === 'b' && items[1]?.value === 24 && items[1].cls === 'w', `numbered from the FEN: ${JSON.stringify(items)}`);
  await page.waitForFunction(() => /Version \S/.test(document.getElementById('version')?.textContent ?? ''));
  const version = await page.textContent('#version');
  assert(/^Version \d/.test(version), `footer: ${version}`);
  await page.context().close();
});

test('an unknown room link says there is no such game and stops asking', async () => {
  const page = await newPage();
  let asks = 0;
  page.on('request', (r) => {
    if (r.url().includes('doesnotexist')) asks++;
  });
  page.on('websocket', (ws) => {
    if (ws.url().includes('doesnotexist')) asks++;
  });
  await page.goto(`${base}/r/doesnotexist`);
  await page.waitForSelector('#no-such-game', { timeout: 5000 });
  const s = await assertSeen(page, '#no-such-game h1', 'the no-such-game message');
  assert(/no such game/.test(s.text), `says so: ${s.text}`);
  const n = asks;
  await page.waitForTimeout(2500);
  assert(asks === n, `no polling: ${n} requests, then ${asks}`);
  assert((await page.locator('text=Loading the game').count()) === 0, 'not loading');
  await page.context().close();
});

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

test('phone width: 375 px, rules pages, accessibility', async () => {
  const page = await newPage({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  await page.goto(base);
  await axe(page, 'home');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(width <= 375, `no horizontal scroll on home (${width})`);
  await shot(page, 'phone-home');
  await startLocal(page, 'xiangqi');
  await typeMove(page, 'h3e3');
  await axe(page, 'game');
  const w2 = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(w2 <= 375, `no horizontal scroll on the game page (${w2})`);
  await shot(page, 'phone-xiangqi');
  await page.goto(`${base}/?game=xiangqi`);
  await page.click('#create-room');
  await page.waitForSelector('#invite-link');
  const w3 = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(w3 <= 375, `no horizontal scroll on the room page (${w3})`);
  await shot(page, 'phone-room');
  for (const g of ['chess', 'horde', 'atomic', 'xiangqi']) {
    await page.goto(`${base}/rules/${g}`);
    await page.waitForSelector('article.rules');
    const firstRank = await page.textContent('figure.diagram .coords-ranks span');
    assert(firstRank === (g === 'xiangqi' ? '10' : '8'), `rules diagram of ${g} labelled from rank ${firstRank}`);
    assert((await page.locator(`a[href="/?game=${g}"]`).count()) >= 1, `rules page links to playing ${g}`);
    await axe(page, `rules ${g}`, { strict: true });
    // the review date once, the sources as links
    const text = await page.textContent('article.rules');
    assert((text.match(/reviewed/gi) ?? []).length === 1, `${g}: one review date`);
    const sources = await page.evaluate(() => {
      const h = Array.from(document.querySelectorAll('article.rules h2')).find((x) => x.textContent === 'Sources');
      const ul = h?.nextElementSibling;
      return ul ? Array.from(ul.querySelectorAll('li'), (li) => li.querySelectorAll('a[href^="https://"]').length) : [];
    });
    assert(sources.length > 0 && sources.every((n) => n > 0), `${g}: every source is a link ${JSON.stringify(sources)}`);
    await shot(page, `rules-${g}`);
  }
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
