// Browser tests of the analysis page (/analysis/<id>): what is drawn at
// desktop and phone size (the graph's pixels, the board's pieces, the
// evaluation bar, nothing cut off), the judged blunder with its arrow,
// clicking the graph, arrow keys, the analysis board's live engine line,
// and axe-core. Loaded by run.mjs.
import { assert, assertSeen, clickMove, drawnPieces } from './page.mjs';

/** Starts the analysis of a game over HTTP; its id. */
async function analyse(base, body) {
  const r = await fetch(`${base}/api/analysis`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert(r.status === 202, `analysis started (${r.status})`);
  return (await r.json()).id;
}

/**
 * Share of an element's screenshot pixels near each colour (decoded in the
 * page on a canvas); the colour 'green' stands for any clearly green pixel
 * (an arrow drawn with transparency over the board).
 */
async function pixelShares(page, selector, colours) {
  const png = (await page.locator(selector).screenshot()).toString('base64');
  return page.evaluate(
    async ([data, want]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      const counts = want.map(() => 0);
      for (let i = 0; i < px.length; i += 4)
        want.forEach((w, k) => {
          const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
          const near = w === 'green' ? g - Math.max(r, b) > 40 : Math.abs(r - w[0]) + Math.abs(g - w[1]) + Math.abs(b - w[2]) < 30;
          if (near) counts[k]++;
        });
      return counts.map((n) => n / (px.length / 4));
    },
    [png, colours],
  );
}

/** Elements that stick out of the viewport sideways, and the page's scroll width. */
const cutOff = (page) =>
  page.evaluate(() => {
    const out = ['.an-board.board-host', '.an-bar', '.an-graph', '#an-moves', '.an-nav', '#an-line']
      .map((sel) => [sel, document.querySelector(sel)?.getBoundingClientRect()])
      .filter(([, r]) => !r || r.width <= 0 || r.left < -0.5 || r.right > innerWidth + 0.5)
      .map(([sel]) => sel);
    return { out, scroll: document.documentElement.scrollWidth, width: innerWidth };
  });

/** Waits for `selector`, failing with what was awaited. */
async function until(page, selector, what, timeout = 15000) {
  await page.waitForSelector(selector, { timeout, state: 'attached' }).catch(() => {
    throw new Error(`waited in vain for ${what} (${selector})`);
  });
}

const LIGHT = [244, 244, 240];
const DARK = [59, 59, 56];

export function analysisTests({ test, newPage, base, shot, axe }) {
  for (const [name, viewport, phone] of [
    ['desktop', { width: 1366, height: 900 }, false],
    ['phone', { width: 390, height: 844 }, true],
  ]) {
    test(`analysis page (${name}): graph, board, blunder and its arrow, analysis board`, async () => {
      const id = await analyse(base, { variant: 'chess', fen: null, moves: ['e2e4', 'e7e5', 'g1f3', 'd8h4'] });
      const page = await newPage({ viewport, ...(phone ? { hasTouch: true, isMobile: true } : {}) });
      await page.goto(`${base}/analysis/${id}`);
      await page.waitForSelector('#an-progress.done', { timeout: 60000 });
      // the board's pieces, drawn inside it with their pictures
      const pieces = await drawnPieces(page);
      assert(pieces.length === 32, `32 pieces drawn at the start (${pieces.length})`);
      // the graph: a curve with White's light area under it and the dark background above
      const d = await page.getAttribute('.an-graph-area', 'd');
      assert(d && (d.match(/L/g) ?? []).length >= 5, `graph area drawn (${d})`);
      const [light, dark] = await pixelShares(page, '.an-graph', [LIGHT, DARK]);
      assert(light > 0.1 && dark > 0.1, `graph pixels: ${Math.round(light * 100)}% light, ${Math.round(dark * 100)}% dark`);
      // the bar beside the board, as tall as it
      const bar = await page.locator('.an-bar').boundingBox();
      const board = await page.locator('.an-board cg-board').boundingBox();
      assert(bar && board && bar.x + bar.width <= board.x && Math.abs(bar.height - board.height) < 30, `bar beside the board (${JSON.stringify({ bar, board })})`);
      let cut = await cutOff(page);
      assert(cut.out.length === 0 && cut.scroll <= cut.width, `nothing cut off: ${JSON.stringify(cut)}`);
      // the navigation: the game page's icons, each with its name as tooltip
      const nav = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.an-nav button'), (x) => ({ title: x.title, label: x.getAttribute('aria-label'), icon: x.querySelector('svg')?.getBoundingClientRect().width ?? 0 })),
      );
      assert(nav.length === 5 && nav.every((n) => n.title && n.title === n.label && n.icon >= 16), `icon buttons with tooltips ${JSON.stringify(nav)}`);
      // the blunder, marked and coloured
      const queen = page.locator('[data-ply="4"]');
      assert((await queen.textContent()) === 'Qh4??', `Qh4 marked ?? (${await queen.textContent()})`);
      const colour = await queen.evaluate((el) => getComputedStyle(el).color);
      assert(colour === 'rgb(168, 38, 31)', `blunder colour ${colour}`);
      await queen.click();
      await until(page, 'svg.cg-shapes line[stroke="#15781B"]', 'the green arrow of the better move');
      const better = await page.textContent('.an-better');
      assert(/^Best was \S+/.test(better ?? ''), `better move named (${better})`);
      const after = await pixelShares(page, '.an-board.board-host', ['green']);
      assert(after[0] > 0.002, `the green arrow is drawn (${after[0]})`);
      await shot(page, `analysis-${name}-blunder`);
      // arrow keys step; the graph jumps
      await page.keyboard.press('ArrowLeft');
      await until(page, '[data-ply="3"][aria-current="true"]', 'ArrowLeft to move 3');
      const g = await page.locator('.an-graph').boundingBox();
      await page.mouse.click(g.x + 2, g.y + g.height / 2);
      await page.waitForFunction(() => !document.querySelector('.an-move[aria-current="true"]'));
      assert((await drawnPieces(page)).length === 32, 'back at the start');
      await page.mouse.click(g.x + g.width - 2, g.y + g.height / 2);
      await until(page, '[data-ply="4"][aria-current="true"]', 'the graph clicked at its end');
      // the analysis board: a move of the player's own, with the engine's line
      await clickMove(page, 'b1', 'c3');
      await until(page, '.an-own[data-ply="5"][aria-current="true"]', "the player's move in the list");
      await page.waitForFunction(() => /depth \d+/.test(document.querySelector('#an-line')?.textContent ?? ''), null, { timeout: 20000 });
      await until(page, 'svg.cg-shapes line[stroke="#003088"]', "the blue arrow of the engine's move");
      const line = await page.textContent('#an-line');
      assert(/^[+−]?\d+\.\d|^#/.test(line), `an evaluation first (${line})`);
      cut = await cutOff(page);
      assert(cut.out.length === 0 && cut.scroll <= cut.width, `nothing cut off with a line: ${JSON.stringify(cut)}`);
      await shot(page, `analysis-${name}-own-line`);
      await axe(page, `analysis ${name}`, { strict: true });
      await page.click('#an-back');
      await page.waitForFunction(() => !document.querySelector('.an-own'));
      // the dark theme: the judged moves and the current one still readable (axe's contrast rule)
      await page.click('#settings');
      await page.selectOption('#set-scheme', 'dark');
      await page.keyboard.press('Escape');
      await queen.click();
      await axe(page, `analysis ${name} dark`, { strict: true });
      await shot(page, `analysis-${name}-dark`);
      await page.context().close();
    });
  }

  test('analysis page: Xiangqi board, and the move that loses by perpetual check', async () => {
    const moves = Array.from({ length: 13 }, (_, i) => ['h9h10', 'f10f9', 'h10h9', 'f9f10'][i % 4]);
    const id = await analyse(base, { variant: 'xiangqi', fen: '5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1', moves });
    const page = await newPage({ viewport: { width: 1366, height: 900 } });
    await page.goto(`${base}/analysis/${id}`);
    await page.waitForSelector('#an-progress.done', { timeout: 60000 });
    assert((await drawnPieces(page)).length === 4, 'four Xiangqi pieces drawn');
    const last = page.locator('[data-ply="13"]');
    assert((await last.textContent()).includes('⚠'), `the 13th move is marked (${await last.textContent()})`);
    assert(/perpetual check/.test((await last.getAttribute('title')) ?? ''), 'its title says why');
    await last.click();
    await page.waitForFunction(() => /perpetual check/.test(document.querySelector('#an-info')?.textContent ?? ''));
    await shot(page, 'analysis-xiangqi');
    await axe(page, 'analysis xiangqi', { strict: true });
    await page.context().close();
  });

  for (const [name, viewport] of [
    ['desktop', { width: 1366, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ])
    test(`analysis board (${name}): the Xiangqi moves that would lose by perpetual check are named, and one tried is marked`, async () => {
      // twelve plies of a chariot checking: a thirteenth check would lose
      const moves = Array.from({ length: 12 }, (_, i) => ['h9h10', 'f10f9', 'h10h9', 'f9f10'][i % 4]);
      const id = await analyse(base, { variant: 'xiangqi', fen: '5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1', moves });
      const page = await newPage({ viewport });
      await page.goto(`${base}/analysis/${id}`);
      await page.waitForSelector('#an-progress.done', { timeout: 60000 });
      assert((await page.locator('.an-losing').count()) === 0, 'nothing would lose at the start');
      await page.keyboard.press('End');
      await until(page, '[data-ply="12"][aria-current="true"]', 'the last position');
      await until(page, '.an-losing', 'the losing moves named');
      const losing = await page.textContent('.an-losing');
      assert(/^Would lose by perpetual check: \S+/.test(losing), `the losing check named: ${losing}`);
      await assertSeen(page, '.an-losing', 'the losing moves line');
      // tried on the analysis board: the player's move is marked as the game's would be (End scrolled the list into view)
      await page.locator('.an-board').scrollIntoViewIfNeeded();
      await clickMove(page, 'h9', 'h10');
      await until(page, '.an-own[data-ply="13"][aria-current="true"]', "the player's move in the list");
      const own = page.locator('.an-own[data-ply="13"]');
      assert((await own.textContent()).includes('⚠') && /perpetual check/.test((await own.getAttribute('title')) ?? ''), `the player's losing move marked: ${await own.textContent()}`);
      await page.waitForFunction(() => /Loses by perpetual check/.test(document.querySelector('#an-info')?.textContent ?? ''));
      await shot(page, `analysis-${name}-xiangqi-would-lose`);
      await axe(page, `analysis ${name} xiangqi line`, { strict: true });
      await page.context().close();
    });

  test('analysis page: an unknown id says so', async () => {
    const page = await newPage();
    await page.goto(`${base}/analysis/0000000000000000`);
    await page.waitForFunction(() => /no longer on the server/.test(document.querySelector('#an-progress')?.textContent ?? ''));
    await page.context().close();
  });
}
