// Browser tests of the game page as it is drawn, at desktop (1366×900) and
// phone (390×844) size: player bars above and below the board, big clocks,
// the board filling the space (resizable on desktop), the move list as numbered
// pairs (absent while empty), icon navigation with tooltips and the wheel,
// material lead, sounds, the result dialog, settings, premoves. Positions,
// sizes, colours and pixels are read from the page, not only the DOM.
import { assert, assertSeen, box, clickMove, idle, pixelAt, plies, sideScroll, typeMove, waitPlies } from './page.mjs';

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Registers the tests with the runner's `test`. */
export function layoutTests({ test, newPage, base, shot, axe }) {
  /** Every box inside the viewport, none overlapping another. */
  async function laidOut(page, sels, what) {
    const vw = page.viewportSize();
    const boxes = {};
    for (const s of sels) {
      const b = await box(page, s);
      assert(b, `${what}: ${s} is drawn`);
      assert(b.x >= -0.5 && b.y >= -0.5 && b.right <= vw.width + 0.5 && b.bottom <= vw.height + 0.5, `${what}: ${s} inside the ${vw.width}×${vw.height} viewport ${JSON.stringify(b)}`);
      boxes[s] = b;
    }
    const list = Object.entries(boxes);
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const [sa, a] = list[i];
        const [sb, b] = list[j];
        const overlap = Math.min(a.right, b.right) - Math.max(a.x, b.x) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.y, b.y) > 1;
        assert(!overlap, `${what}: ${sa} and ${sb} overlap ${JSON.stringify([a, b])}`);
      }
    assert(!(await sideScroll(page)), `${what}: no horizontal scroll`);
    return boxes;
  }

  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`game page at ${size} size: bars, clocks, board, move list, navigation, material, axe`, async () => {
      const page = await newPage({ viewport: vp });
      for (const game of ['chess', 'xiangqi']) {
        await page.goto(`${base}/?game=${game}`);
        await page.selectOption('#ai-level', '1');
        await page.selectOption('#ai-color', 'white');
        await page.selectOption('#ai-clock', '3');
        await page.click('#start-ai');
        await page.waitForSelector('.board-host cg-board piece');
        await idle(page);
        // nothing played: no move list box at all
        assert((await page.locator('.move-list').count()) === 0, `${size} ${game}: no empty move list`);
        await page.evaluate(() => scrollTo(0, 0));
        const sels = ['.pbar-top .pinfo', '.board-host cg-board', '.pbar-bottom .pinfo', '.clock-white', '.clock-black'];
        const b = await laidOut(page, sels, `${size} ${game}`);
        const board = b['.board-host cg-board'];
        // the bars above and below the board, named: the human at the bottom, the engine on top
        assert(b['.pbar-top .pinfo'].bottom <= board.y + 1, `${size} ${game}: the top bar is above the board`);
        assert((await page.textContent('.pbar-bottom .pname')) === 'You', `bottom bar names the player: ${await page.textContent('.pbar-bottom .pname')}`);
        assert((await page.textContent('.pbar-top .pname')) === 'Computer · level 1', `top bar names the engine: ${await page.textContent('.pbar-top .pname')}`);
        assert((await page.locator('.pbar-bottom .dot.on').count()) === 1, 'a green connection dot by the player');
        const clockPx = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.clock-white')).fontSize));
        if (size === 'desktop') {
          assert(b['.pbar-bottom .pinfo'].y >= board.bottom - 1, `desktop ${game}: the bottom bar is below the board`);
          // the board fills the height left; the clocks stand beside it, large
          assert(board.h >= 600, `desktop ${game}: a big board (${board.w}×${board.h})`);
          assert(b['.clock-white'].x >= board.right && b['.clock-black'].x >= board.right, `desktop ${game}: clocks beside the board`);
          assert(clockPx >= 32, `desktop: big clocks (${clockPx} px)`);
        } else {
          // full width on a phone: the board, and 18 px of rank labels
          assert(board.w >= vp.width - 24 - 18 - 8, `phone ${game}: a full-width board (${board.w})`);
          assert(clockPx >= 24, `phone: readable clocks (${clockPx} px)`);
          await page.locator('.pbar-bottom').scrollIntoViewIfNeeded();
          const bottom = await box(page, '.pbar-bottom .pinfo');
          const brd = await box(page, '.board-host cg-board');
          assert(bottom.y >= brd.bottom - 1, `phone ${game}: the bottom bar is below the board`);
        }
        // the board is drawn: a light square's pixel is not the page background
        const px = await pixelAt(page, board.x + 3, board.y + 3);
        assert(px.some((c, i) => Math.abs(c - [247, 245, 240][i]) > 8), `${size} ${game}: the board is painted (${px})`);
        // the navigation: icons with tooltips and names
        const nav = await page.evaluate(() =>
          Array.from(document.querySelectorAll('.nav button'), (x) => ({ title: x.title, label: x.getAttribute('aria-label'), icon: x.querySelector('svg')?.getBoundingClientRect().width ?? 0 })),
        );
        assert(nav.length === 5 && nav.every((n) => n.title && n.title === n.label && n.icon >= 16), `${size}: icon buttons with tooltips ${JSON.stringify(nav)}`);
        await axe(page, `${size} ${game} game`, { strict: true });
        await shot(page, `${size}-${game}-start`);
      }
      // a capture: numbered pairs, the current move highlighted, the material lead in the capturer's bar
      await page.goto(`${base}/?game=chess`);
      await page.selectOption('#local-clock', '0');
      await page.click('#start-local');
      await page.waitForSelector('#typed-move');
      for (const m of ['e4', 'd5', 'exd5']) await typeMove(page, m);
      await waitPlies(page, 3);
      const rows = await page.evaluate(() => {
        const list = document.querySelector('ol.moves');
        const cells = Array.from(list.querySelectorAll('li')).flatMap((li) => [getComputedStyle(li, '::before').content, li.textContent]);
        return { cols: getComputedStyle(list).gridTemplateColumns.split(' ').length, cells };
      });
      assert(rows.cols === 3, `three columns: number, White, Black (${rows.cols})`);
      assert(JSON.stringify(rows.cells) === JSON.stringify(['"1"', 'e4', 'none', 'd5', '"2"', 'exd5']), `numbered pairs: ${JSON.stringify(rows.cells)}`);
      const cur = await page.evaluate(() => {
        const c = document.querySelector('ol.moves .current');
        return c ? { text: c.textContent, bg: getComputedStyle(c).backgroundColor } : null;
      });
      assert(cur?.text === 'exd5' && cur.bg === 'rgb(31, 95, 168)', `the last move highlighted: ${JSON.stringify(cur)}`);
      const mat = (await page.textContent('.pbar-bottom .material')) ?? '';
      assert(mat.includes('♟') && mat.includes('+1'), `White's bar shows the pawn won: ${mat}`);
      // the wheel over the board steps back and forward
      const bb = await box(page, '.board-host cg-board');
      await page.mouse.move(bb.x + bb.w / 2, bb.y + bb.h / 2);
      await page.mouse.wheel(0, -100);
      await page.waitForFunction(() => document.querySelector('ol.moves .current')?.textContent === 'd5');
      await page.waitForTimeout(120);
      await page.mouse.wheel(0, 100);
      await page.waitForFunction(() => document.querySelector('ol.moves .current')?.textContent === 'exd5');
      await shot(page, `${size}-chess-moves`);
      // Horde: 28 more pawns for White, drawn as a count on one line; Black is 3 points up
      await page.goto(`${base}/?game=horde`);
      await page.click('#start-local');
      await page.waitForSelector('#typed-move');
      const white = await page.textContent('.pbar-bottom .material .captured');
      const black = await page.textContent('.pbar-top .material .diff');
      assert(white === '♟×28' && black === '+3', `Horde material: White "${white}", Black "${black}"`);
      const bar = await box(page, '.pbar-bottom .pinfo');
      assert(bar.h < 40, `one line (${bar.h} px)`);
      await page.context().close();
    });

  test('phone: the Xiangqi streak box appears with the first check, in words, inside the screen; the counters in a details line with a tooltip', async () => {
    const page = await newPage({ viewport: PHONE });
    await page.goto(`${base}/?game=xiangqi&fen=${encodeURIComponent('5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1')}`);
    await page.click('#start-local');
    await page.waitForSelector('#typed-move');
    assert((await page.locator('.streaks').count()) === 0, 'no streak box before a check');
    const counters = await assertSeen(page, '.xq-counters', 'the counters line');
    assert((await page.getAttribute('.xq-counters', 'title')) === counters.text, 'the counters as a tooltip too');
    for (const m of ['h9h10', 'f10f9', 'h10h9']) await typeMove(page, m);
    const s = await assertSeen(page, '.streaks p', 'the streak line');
    assert(s.text === 'Red has checked 2 times in a row: a 7th check loses.', `in plain words: ${s.text}`);
    assert(!(await sideScroll(page)), 'no horizontal scroll');
    await shot(page, 'phone-xiangqi-streak');
    await page.context().close();
  });

  test('desktop: after twenty moves the bottom bar and clock still stand right under the board, the move list scrolls', async () => {
    const page = await newPage({ viewport: DESKTOP });
    await page.goto(`${base}/?game=chess`);
    await page.selectOption('#local-clock', '2');
    await page.click('#start-local');
    await page.waitForSelector('#typed-move');
    for (const m of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nc3', 'Nc6', 'Nb1', 'Nb8', 'e3', 'e6', 'd3', 'd6', 'a3', 'a6', 'h3', 'h6', 'b3', 'b6', 'g3', 'g6']) await typeMove(page, m);
    await page.evaluate(() => scrollTo(0, 0));
    const b = await laidOut(page, ['.pbar-top .pinfo', '.board-host cg-board', '.pbar-bottom .pinfo', '.clock-white', '.clock-black', '.panel'], 'desktop, twenty moves');
    const board = b['.board-host cg-board'];
    // the file labels (18 px) lie between the board and the bar
    assert(b['.pbar-bottom .pinfo'].y - board.bottom < 30, `the bottom bar right under the board ${JSON.stringify([board, b['.pbar-bottom .pinfo']])}`);
    assert(b['.clock-white'].y - board.bottom < 30, `White's clock beside the board's bottom ${JSON.stringify(b['.clock-white'])}`);
    assert(b['.panel'].bottom <= b['.clock-white'].y + 1, 'the panel ends above the bottom clock');
    // the list keeps the last move in sight by scrolling itself
    const list = await page.evaluate(() => {
      const el = document.querySelector('.move-list');
      const cur = el.querySelector('.current').getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return { scrolls: el.scrollHeight > el.clientHeight, seen: cur.top >= r.top - 1 && cur.bottom <= r.bottom + 1 };
    });
    assert(list.scrolls && list.seen, `the list scrolls, the current move in sight ${JSON.stringify(list)}`);
    await shot(page, 'desktop-long-game');
    await page.context().close();
  });

  test('desktop: the board is resized by dragging its corner, and the size is remembered', async () => {
    const page = await newPage({ viewport: DESKTOP });
    await page.goto(`${base}/?game=chess`);
    await page.click('#start-local');
    await page.waitForSelector('#typed-move');
    // a big screen: a bigger board, still no sideways scroll
    await page.setViewportSize({ width: 1920, height: 1080 });
    // chessgroundx redraws on its ResizeObserver: wait for the new size rather than read the old one
    await page
      .waitForFunction(() => document.querySelector('.board-host cg-board').getBoundingClientRect().height >= 800, null, { timeout: 5000 })
      .catch(() => undefined);
    const big = await box(page, '.board-host cg-board');
    assert(big.h >= 800 && !(await sideScroll(page)), `1920×1080: a board of ${big.h} px, no horizontal scroll`);
    await page.setViewportSize(DESKTOP);
    await page.waitForFunction((h) => document.querySelector('.board-host cg-board').getBoundingClientRect().height < h, big.h);
    const before = await box(page, '.board-host cg-board');
    const grip = await box(page, '.board-resize');
    assert(grip, 'a resize handle at the corner');
    assert(Math.abs(grip.x + grip.w / 2 - before.right) < 16 && Math.abs(grip.y + grip.h / 2 - before.bottom) < 30, `the handle sits at the board's corner ${JSON.stringify([grip, before])}`);
    await page.mouse.move(grip.x + grip.w / 2, grip.y + grip.h / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.w / 2 - 120, grip.y + grip.h / 2 - 120, { steps: 6 });
    await page.mouse.up();
    const after = await box(page, '.board-host cg-board');
    assert(Math.abs(after.w - (before.w - 120)) < 10, `the board shrank by the drag: ${before.w} → ${after.w}`);
    await page.reload();
    await page.waitForSelector('.board-host cg-board piece');
    const reloaded = await box(page, '.board-host cg-board');
    assert(Math.abs(reloaded.w - after.w) < 2, `the size survives a reload: ${reloaded.w} vs ${after.w}`);
    // the clocks still stand beside the smaller board, and a move still lands where it is clicked
    await clickMove(page, 'e2', 'e4');
    await waitPlies(page, 1);
    await page.dblclick('.board-resize');
    await page.waitForFunction((w) => Math.abs(document.querySelector('.board-host cg-board').getBoundingClientRect().width - w) < 2, before.w);
    assert((await plies(page)) === 1, 'one move played');
    await page.context().close();
  });
}
