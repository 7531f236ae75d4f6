// Browser tests of the home page as drawn at desktop and phone size: game
// cards with a preview of each start position (aligned), the last game
// remembered, the three ways to play, the live table of open rooms, saved
// games as small boards (continue, delete) and the import of a PGN or FEN.
// /api/import and /api/analysis are the real server's.
import { DESKTOP, PHONE } from './layout.mjs';
import { assert, assertSeen, box, drawnPieces, pieceOn, sideScroll, typeMove, waitPlies } from './page.mjs';

/** Registers the tests with the runner's `test`. */
export function homeTests({ test, newPage, base, shot, startLocal, axe }) {
  /** Each card's preview: its box and how many pieces are drawn in it with a picture. */
  const previews = (page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('.variant-card'), (card) => {
        const b = card.querySelector('.preview cg-board').getBoundingClientRect();
        const pieces = Array.from(card.querySelectorAll('.preview piece')).filter((p) => {
          const r = p.getBoundingClientRect();
          return r.width > 2 && r.left >= b.left - 1 && r.right <= b.right + 1 && getComputedStyle(p).backgroundImage.startsWith('url(');
        }).length;
        return { game: card.querySelector('input').value, top: Math.round(b.top), h: Math.round(b.height), w: Math.round(b.width), pieces };
      }),
    );

  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`home at ${size} size: game cards with previews, aligned; the last game remembered; three ways to play`, async () => {
      const page = await newPage({ viewport: vp });
      await page.goto(base);
      assert(await page.isChecked('#v-chess'), 'chess on a first visit');
      // The previews are drawn after the page's script runs: on a loaded
      // machine the first look came before Horde's (0 pieces), so wait
      // until every card has drawn something, then check the exact counts.
      await page
        .waitForFunction(
          () =>
            Array.from(document.querySelectorAll('.variant-card')).every((c) =>
              Array.from(c.querySelectorAll('.preview piece')).some(
                (p) => p.getBoundingClientRect().width > 2 && getComputedStyle(p).backgroundImage.startsWith('url('),
              ),
            ),
          null,
          { timeout: 10000 },
        )
        .catch(() => {});
      const cards = await previews(page);
      const want = { horde: 52, atomic: 32, xiangqi: 32, chess: 32 };
      for (const c of cards) assert(c.pieces === want[c.game], `${c.game}: its start position drawn (${c.pieces} pieces)`);
      // aligned: cards side by side have their boards at the same height, all of one size
      const rows = new Map();
      for (const c of cards) rows.set(c.top, [...(rows.get(c.top) ?? []), c.game]);
      assert(rows.size === (size === 'desktop' ? 1 : 2), `${size}: previews in ${rows.size} rows ${JSON.stringify(cards)}`);
      // one size (a 9×10 board is a few pixels shorter: chessgroundx rounds each square to whole pixels)
      const hs = cards.map((c) => c.h);
      assert(Math.max(...hs) - Math.min(...hs) <= 6, `previews of one height ${JSON.stringify(cards)}`);
      const modes = await page.evaluate(() => Array.from(document.querySelectorAll('.mode'), (m) => m.getBoundingClientRect()).map((r) => ({ top: Math.round(r.top), left: Math.round(r.left), right: r.right })));
      assert(modes.length === 3 && modes.every((m) => m.right <= vp.width), `three mode cards inside the page ${JSON.stringify(modes)}`);
      if (size === 'desktop') assert(new Set(modes.map((m) => m.top)).size === 1, 'desktop: the three ways side by side');
      else assert(new Set(modes.map((m) => m.left)).size === 1, 'phone: the three ways one under the other');
      assert(!(await sideScroll(page)), 'no horizontal scroll');
      await axe(page, `${size} home`, { strict: true });
      await shot(page, `${size}-home`);
      await page.check('#v-xiangqi');
      await page.reload();
      assert(await page.isChecked('#v-xiangqi'), 'the last game chosen is remembered');
      await page.context().close();
    });

  test(
    'home: open rooms as a live table; saved games as small boards with continue, analyse and delete',
    async () => {
      const page = await newPage({ viewport: DESKTOP });
      await page.goto(base);
      await page.waitForSelector('.lobby-none:not([hidden])');
      const a = await newPage();
      await a.goto(`${base}/?game=xiangqi`);
      await a.selectOption('#friend-clock', '3');
      await a.selectOption('#friend-color', 'white');
      await a.check('#friend-public');
      await a.click('#create-room');
      await a.waitForSelector('#invite-link');
      await page.waitForSelector('table.open-rooms:not([hidden]) tbody tr');
      const cells = await page.evaluate(() => Array.from(document.querySelectorAll('table.open-rooms tbody tr td'), (td) => td.textContent));
      assert(JSON.stringify(cells) === JSON.stringify(['Xiangqi', '5 + 3', 'Black', 'Join']), `the room's row: ${JSON.stringify(cells)}`);
      const heads = await page.evaluate(() => Array.from(document.querySelectorAll('table.open-rooms th'), (th) => th.textContent));
      assert(heads.slice(0, 3).join('|') === 'Game|Clock|You play', `column heads: ${heads}`);
      await shot(page, 'desktop-home-lobby');
      // someone else takes the seat: the row goes, live
      const b = await newPage();
      await b.goto(`${base}/?game=chess`);
      await b.click('table.open-rooms a.btn');
      await b.waitForSelector('#connection.conn-open');
      await page.waitForSelector('table.open-rooms[hidden]', { state: 'attached' });
      for (const p of [a, b]) await p.context().close();
      // a saved game: its position drawn small, continue and delete
      await startLocal(page, 'chess');
      await typeMove(page, 'e4');
      const id = new URL(page.url()).pathname.split('/').pop();
      await page.goto(base);
      await page.waitForSelector('.saved-game .preview piece');
      const drawn = await page.evaluate(() => Array.from(document.querySelectorAll('.saved-game .preview piece'), (p) => `${p.className}@${p.cgKey}`));
      assert(drawn.some((p) => /white/.test(p) && /p-piece/.test(p) && p.endsWith('@e4')) && !drawn.some((p) => p.endsWith('@e2')), `the saved position is drawn: ${drawn.join(' ')}`);
      const cont = await page.getAttribute('.saved-game a.btn', 'href');
      assert(cont === `/r/${id}`, `continue goes to the game: ${cont}`);
      await page.click('.saved-game a.btn');
      await waitPlies(page, 1);
      assert((await pieceOn(page, 'e4')) === 'white p-piece', 'the game goes on');
      // "Analyse" asks the server to analyse that room's game, then opens the analysis page
      await page.goto(base);
      const posted = page.waitForRequest((r) => r.url().endsWith('/api/analysis') && r.method() === 'POST');
      await page.click('.saved-game .saved-analyse');
      assert(JSON.stringify((await posted).postDataJSON()) === JSON.stringify({ room: id }), 'POST /api/analysis {"room": id}');
      await page.waitForURL(/\/analysis\/[\w-]+$/);
      await page.waitForSelector('.analysis h1');
      await page.goto(base);
      await page.click('.saved-game button:has-text("Delete")');
      assert((await page.locator('.saved-game').count()) === 0, 'deleted from the list');
      await page.reload();
      assert((await page.locator('.saved-game').count()) === 0, 'and from this browser');
      await page.context().close();
    },
    { online: true },
  );

  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`import at ${size} size: a PGN read by the server, played on against the computer or analysed; a bad one says what and where`, async () => {
      const page = await newPage({ viewport: vp });
      const asked = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/import')) asked.push(r.postDataJSON());
      });
      await page.goto(base);
      await page.fill('#import-text', '[White "Ann"]\n[Black "Bob"]\n\n1. e4 Nf9');
      await page.click('#import-read');
      await page.waitForSelector('#import-error');
      const msg = await page.textContent('#import-error');
      assert(msg.startsWith("line 4, column 7: 'Nf9' is not a move"), `the server's message, with the place: ${msg}`);
      const err = await box(page, '#import-error');
      assert(err && err.right <= vp.width, 'the message inside the page');
      await shot(page, `${size}-import-error`);
      await page.fill('#import-text', '[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 2. Nf3');
      await page.click('#import-read');
      await page.waitForSelector('#import-summary');
      assert(/Chess · 2 moves · Ann – Bob/.test(await page.textContent('#import-summary')), `summary: ${await page.textContent('#import-summary')}`);
      assert(JSON.stringify(asked[1]) === JSON.stringify({ text: '[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 2. Nf3' }), `POST /api/import {text}: ${JSON.stringify(asked[1])}`);
      for (const id of ['#import-ai', '#import-friend', '#import-local', '#import-analyse']) assert(await page.isVisible(id), `${id} offered`);
      await axe(page, `${size} import`, { strict: true });
      await shot(page, `${size}-import`);
      // played on against the real server's engine from the position after 2. Nf3 (Black to move: the engine, as the human is White)
      await page.selectOption('#ai-color', 'white');
      await page.click('#import-ai');
      await page.waitForSelector('.board-host cg-board piece');
      await page.waitForFunction(() => document.querySelectorAll('ol.moves li').length >= 1);
      assert((await pieceOn(page, 'f3')) === 'white n-piece' && (await pieceOn(page, 'e4')) === 'white p-piece', 'the imported position on the board');
      const first = await page.evaluate(() => getComputedStyle(document.querySelector('ol.moves li'), '::before').content);
      assert(first === '"2"', `numbered from the position's move 2: ${first}`);
      // or analysed: the game's start and moves go to /api/analysis, then its page
      await page.goto(base);
      await page.fill('#import-text', '1. e4 e5 2. Nf3');
      await page.click('#import-read');
      const posted = page.waitForRequest((r) => r.url().endsWith('/api/analysis') && r.method() === 'POST');
      await page.click('#import-analyse');
      const body = (await posted).postDataJSON();
      assert(JSON.stringify(body) === JSON.stringify({ variant: 'chess', fen: null, moves: ['e2e4', 'e7e5', 'g1f3'] }), `POST /api/analysis of the imported game: ${JSON.stringify(body)}`);
      await page.waitForURL(/\/analysis\/[\w-]+$/);
      await page.waitForSelector('.analysis h1');
      await page.context().close();
    });

  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`import of a Xiangqi FEN at ${size} size: recognised without choosing the game, played on with a friend; a bad one says what is wrong`, async () => {
      const page = await newPage({ viewport: vp });
      await page.goto(base);
      // eleven files on the top rank: the server's message says so
      await page.fill('#import-text', '3k6/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1');
      await page.click('#import-read');
      await page.waitForSelector('#import-error');
      const err = await assertSeen(page, '#import-error', 'the refusal');
      assert(/rank|file|square|column/i.test(err.text) && err.text.length > 15, `the server says what is wrong: ${err.text}`);
      const fen = '3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1';
      await page.fill('#import-text', fen);
      await page.click('#import-read');
      await page.waitForSelector('#import-summary');
      assert((await page.textContent('#import-summary')).startsWith('Xiangqi · 0 moves'), `read as Xiangqi: ${await page.textContent('#import-summary')}`);
      await assertSeen(page, '#import-summary', 'the summary');
      assert(!(await sideScroll(page)), 'no horizontal scroll');
      // with a friend: an online room from that position, its invitation shown
      await page.click('#import-friend');
      await page.waitForSelector('#invite-link');
      await page.waitForSelector('.board-host cg-board piece');
      // drawn at once: not the start position's pieces sliding (or fading) into it
      const pieces = await drawnPieces(page);
      assert(pieces.join(' ') === 'black k-piece@d: white a-piece@e2 white k-piece@e1', `the imported position drawn: ${pieces}`);
      await page.context().close();
    });

  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`a refused start at ${size} size is said under the button pressed, inside the screen`, async () => {
      const page = await newPage({ viewport: vp });
      // the chess position of issue 11 in a Horde link: White may not have a king there
      await page.goto(`${base}/?game=horde&fen=${encodeURIComponent('8/P5k1/8/8/8/8/6K1/8 w - - 0 1')}`);
      for (const [btn, err] of [
        ['#start-local', '#start-error-local'],
        ['#start-ai', '#start-error-ai'],
      ]) {
        await page.locator(btn).scrollIntoViewIfNeeded();
        await page.click(btn);
        await page.waitForSelector(`${err}:not(:empty)`);
        const seen = await assertSeen(page, err, `the refusal under ${btn}`);
        assert(/king/.test(seen.text), `the server's reason: ${seen.text}`);
        const [b, e] = [await box(page, btn), await box(page, err)];
        assert(e.y >= b.bottom - 1 && e.y - b.bottom < 60, `${size}: the message right under ${btn} ${JSON.stringify([b, e])}`);
      }
      await shot(page, `${size}-start-refused`);
      await page.context().close();
    });
}
