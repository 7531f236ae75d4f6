// Helpers of the browser tests that look at one page: reading the move list
// and the board, playing moves with the mouse and the keyboard, and checking
// what is drawn (boxes, colours, pictures), not only the DOM.
import { readFileSync } from 'node:fs';

export function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

/** The move list as text, one space between moves. */
export const moveList = (page) => page.evaluate(() => Array.from(document.querySelectorAll('ol.moves li'), (li) => li.textContent.trim()).join(' '));

/** Number of moves in the move list. */
export const plies = (page) => page.locator('ol.moves li').count();
export async function waitPlies(page, n, atLeast = false) {
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
export const idle = (page) => page.waitForSelector('.round[aria-busy="false"]', { timeout: 20000 });

/** Types a move in the keyboard field and waits for it to appear. */
export async function typeMove(page, text) {
  await idle(page);
  const before = await plies(page);
  await page.fill('#typed-move', text);
  await page.press('#typed-move', 'Enter');
  // at least: against the computer its reply may land before the list is read
  await waitPlies(page, before + 1, true);
}

/** Clicks a square of the board (orientation from the wrap's class). */
export async function clickSquare(page, sq) {
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
export async function clickMove(page, from, to) {
  await clickSquare(page, from);
  await clickSquare(page, to);
}

/** Screen centre of a square (orientation from the wrap's class). */
export async function squareCenter(page, sq) {
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
export async function dragMove(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

/** The piece chessgroundx shows on a square as `colour role` (`white k-piece`), or null; rank 10 is ':' there. */
export const pieceOn = (page, sq) =>
  page.evaluate((key) => {
    const p = Array.from(document.querySelectorAll('.board-host cg-board piece')).find((el) => el.cgKey === key && !el.classList.contains('ghost'));
    return p ? Array.from(p.classList).filter((c) => c === 'white' || c === 'black' || c.endsWith('-piece')).join(' ') : null;
  }, sq.replace(/10$/, ':'));

/** Waits until a square shows this piece (class list as chessgroundx writes it). */
export const waitPiece = (page, sq, cls) =>
  page.waitForFunction(
    ([key, want]) => Array.from(document.querySelectorAll('.board-host cg-board piece')).some((el) => el.cgKey === key && want.split(' ').every((c) => el.classList.contains(c))),
    [sq.replace(/10$/, ':'), cls],
    { polling: 50 },
  );

/**
 * What the player sees of an element: its box inside the viewport, not
 * hidden, and its text colour against the first opaque background behind
 * it (WCAG contrast ratio).
 */
export async function looks(page, selector) {
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
export async function assertSeen(page, sel, what) {
  const s = await looks(page, sel);
  assert(s.ok, `${what} is drawn (${JSON.stringify(s)})`);
  return s;
}

/** The pieces drawn on the board: inside it, with a picture, as `colour role@key`. */
export const drawnPieces = (page) =>
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
export async function exported(page) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  return readFileSync(await dl.path(), 'utf8');
}

/**
 * The game board's coordinate labels in DOM order, whether the DOM order is
 * the screen order (files left to right, ranks top to bottom), and for each
 * king whether the labels of its square (given) line up with it on screen.
 */
export async function boardCoords(page, kingSquares) {
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

/** The text drawn on the Xiangqi piece of a square (from its background image), or null. */
export const glyphOn = (page, sq) =>
  page.evaluate((key) => {
    const p = Array.from(document.querySelectorAll('.board-host cg-board piece')).find((el) => el.cgKey === key);
    const m = p && /<text[^>]*>([^<]*)<\/text>/.exec(decodeURIComponent(getComputedStyle(p).backgroundImage));
    return m ? m[1] : null;
  }, sq.replace(/10$/, ':'));

/**
 * The colour of one pixel as the screen shows it (a 1×1 screenshot decoded
 * by the page's own canvas), as [r, g, b]: what is drawn, whatever the DOM
 * says.
 */
export async function pixelAt(page, x, y) {
  const png = await page.screenshot({ clip: { x: Math.floor(x), y: Math.floor(y), width: 1, height: 1 } });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = 1;
    c.height = 1;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return Array.from(g.getImageData(0, 0, 1, 1).data.slice(0, 3));
  }, png.toString('base64'));
}

/** The viewport box of the first element matching `sel` (null when absent or not drawn). */
export const box = (page, sel) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? { x: r.left, y: r.top, w: r.width, h: r.height, right: r.right, bottom: r.bottom } : null;
  }, sel);

/** Whether the page scrolls sideways (a layout wider than the viewport). */
export const sideScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth > innerWidth);

/** Sound marks the page left (`performance.mark('cpx-sound:…')`), in order. */
export const sounds = (page) => page.evaluate(() => performance.getEntriesByType('mark').filter((m) => m.name.startsWith('cpx-sound:')).map((m) => m.name.slice(10)));

/**
 * How an element is drawn, from its own screenshot decoded on the page's
 * canvas: the share of dark pixels (sum of r, g, b under 240: outlines and
 * black pieces), of light ones (each channel over 200) and a coarse 8×8
 * signature of the picture (mean brightness per cell) to tell pictures
 * apart. A blank box is all light and no dark.
 */
export async function inkOf(page, locator) {
  // a clip of the page, not locator.screenshot(): that one waits for the element to be "stable", and once
  // in a dozen runs it timed out with the picker plainly drawn (the failure's own screenshot showed it)
  const r = await locator.boundingBox();
  const png = (await page.screenshot({ clip: { x: r.x, y: r.y, width: r.width, height: r.height } })).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const px = g.getImageData(0, 0, c.width, c.height).data;
    let dark = 0;
    let light = 0;
    const cells = Array.from({ length: 64 }, () => 0);
    const counts = Array.from({ length: 64 }, () => 0);
    for (let i = 0; i < px.length; i += 4) {
      const sum = px[i] + px[i + 1] + px[i + 2];
      if (sum < 240) dark++;
      if (px[i] > 200 && px[i + 1] > 200 && px[i + 2] > 200) light++;
      const p = i / 4;
      const cell = Math.min(7, Math.floor(((p % c.width) * 8) / c.width)) + 8 * Math.min(7, Math.floor((Math.floor(p / c.width) * 8) / c.height));
      cells[cell] += sum / 3;
      counts[cell]++;
    }
    const n = px.length / 4;
    return { dark: dark / n, light: light / n, signature: cells.map((s, i) => Math.round(s / Math.max(1, counts[i]) / 32)).join(''), w: c.width, h: c.height };
  }, png);
}
