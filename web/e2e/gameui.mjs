// Browser tests of what the game page adds around the moves: sounds (read
// from the page's performance marks, a headless browser has no ears), the
// result dialog, the settings menu (board colours seen in pixels, the dark
// theme, coordinates, all remembered), premoves judged by the server.
import { DESKTOP, PHONE } from './layout.mjs';
import { assert, assertSeen, box, clickMove, exported, idle, moveList, pixelAt, plies, sideScroll, sounds, typeMove, waitPlies } from './page.mjs';

/** Registers the tests with the runner's `test`. */
export function gameUiTests({ test, newPage, base, shot, startLocal, axe, onlinePair }) {
  test('sounds: move, capture, check, Atomic explosion, game end; mute is remembered', async () => {
    const page = await newPage();
    await startLocal(page, 'chess');
    for (const m of ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qe5+']) await typeMove(page, m);
    await page.waitForFunction(() => performance.getEntriesByType('mark').filter((m) => m.name.startsWith('cpx-sound:')).length >= 6);
    const heard = await sounds(page);
    assert(JSON.stringify(heard) === JSON.stringify(['move', 'move', 'capture', 'capture', 'move', 'check']), `the sounds of the moves: ${heard}`);
    // muted in the settings: silence, and still muted after a reload
    await page.click('#settings');
    await page.uncheck('#set-sound');
    await page.keyboard.press('Escape');
    await typeMove(page, 'Be2');
    await page.waitForTimeout(200);
    assert((await sounds(page)).length === 6, `no sound while muted: ${await sounds(page)}`);
    await page.reload();
    await waitPlies(page, 7);
    await page.click('#settings');
    assert(!(await page.isChecked('#set-sound')), 'the mute survives a reload');
    await page.check('#set-sound');
    await page.keyboard.press('Escape');
    await startLocal(page, 'atomic');
    for (const m of ['g1f3', 'd7d5', 'f3e5', 'a7a6', 'e5f7']) await typeMove(page, m);
    await page.waitForSelector('.result');
    await page.waitForFunction(() => performance.getEntriesByType('mark').some((m) => m.name === 'cpx-sound:end'));
    const atomic = await sounds(page);
    assert(JSON.stringify(atomic.slice(-3)) === JSON.stringify(['move', 'explosion', 'end']), `the blast, then the end: ${atomic}`);
    await page.context().close();
  });

  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`result dialog at ${size} size: the reason in words, rematch, new game, download, analyse`, async () => {
      const page = await newPage({ viewport: vp });
      await startLocal(page, 'chess');
      for (const m of ['f3', 'e5', 'g4', 'Qh4#']) await typeMove(page, m);
      await page.waitForSelector('#result-dialog');
      await page.locator('#result-dialog').scrollIntoViewIfNeeded();
      assert((await page.textContent('#rd-title')) === 'Black wins', `title: ${await page.textContent('#rd-title')}`);
      assert((await page.textContent('.rd-reason')) === 'by checkmate', `reason: ${await page.textContent('.rd-reason')}`);
      await assertSeen(page, '#rd-title', 'the result title');
      for (const id of ['#rd-rematch', '#rd-new', '#rd-export', '#rd-analyse']) await assertSeen(page, id, `the dialog's ${id}`);
      // the dialog lies over the board, inside the viewport
      const d = await box(page, '#result-dialog');
      const b = await box(page, '.board-host cg-board');
      assert(d.x >= b.x - 1 && d.right <= b.right + 1 && d.y >= b.y - 1 && d.bottom <= b.bottom + 1, `over the board: ${JSON.stringify([d, b])}`);
      assert(!(await sideScroll(page)), 'no horizontal scroll');
      await axe(page, `${size} result dialog`, { strict: true });
      await shot(page, `${size}-result-dialog`);
      assert(/Result "0-1"/.test(await exported(page)), 'the panel download');
      const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#rd-export')]);
      assert(dl.suggestedFilename().endsWith('.pgn'), `the dialog downloads the game: ${dl.suggestedFilename()}`);
      // "Analyse" asks the server for an analysis of this room and opens its page
      const room = new URL(page.url()).pathname.split('/').pop();
      const posted = page.waitForRequest((r) => r.url().endsWith('/api/analysis') && r.method() === 'POST');
      await page.click('#rd-analyse');
      assert(JSON.stringify((await posted).postDataJSON()) === JSON.stringify({ room }), 'POST /api/analysis {"room": id}');
      await page.waitForURL(/\/analysis\/[\w-]+$/);
      await page.waitForSelector('.analysis h1');
      // back on the game: it was over when the page opened, so no dialog, the panel says the result
      await page.goBack();
      await page.waitForSelector('.result');
      assert((await page.locator('#result-dialog').count()) === 0, 'no dialog for a game already over when the page opened');
      await assertSeen(page, '.result', 'the result in the panel');
      // a new game ended: the × closes its dialog
      await page.click('#rematch');
      await page.waitForSelector('#typed-move');
      await page.click('#resign');
      await page.click('#dlg-yes');
      await page.click('#rd-close');
      assert((await page.locator('#result-dialog').count()) === 0, 'the × closes the dialog');
      await page.context().close();
    });

  test('result dialog: focus and Escape, rematch and new game buttons', async () => {
    const page = await newPage();
    await startLocal(page, 'chess');
    for (const m of ['f3', 'e5', 'g4', 'Qh4#']) await typeMove(page, m);
    // the keyboard lands on its first choice; Escape closes it, and it stays closed while stepping through the moves
    await page.waitForFunction(() => document.activeElement?.id === 'rd-rematch');
    await page.keyboard.press('Escape');
    assert((await page.locator('#result-dialog').count()) === 0, 'Escape closes the dialog');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('End');
    assert((await page.locator('#result-dialog').count()) === 0, 'and stays closed');
    await assertSeen(page, '.result', 'the result in the panel');
    // a rematch from the dialog: a new same-device game
    await page.click('#rematch');
    await page.waitForSelector('#typed-move');
    await page.click('#resign');
    await page.click('#dlg-yes');
    const second = page.url();
    await page.click('#rd-rematch');
    await page.waitForFunction((u) => location.href !== u, second);
    await page.waitForSelector('#typed-move');
    assert((await plies(page)) === 0, 'a fresh game');
    await page.click('#resign');
    await page.click('#dlg-yes');
    await page.click('#rd-new');
    await page.waitForSelector('#start-local');
    assert(new URL(page.url()).searchParams.get('game') === 'chess', `new game of the same kind: ${page.url()}`);
    await page.context().close();
  });

  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`settings at ${size} size: board colours, dark theme, coordinates, remembered`, async () => {
      const page = await newPage({ viewport: vp });
      await startLocal(page, 'chess');
      const b = await box(page, '.board-host cg-board');
      // a8 is a light square, b8 a dark one (White at the bottom)
      const dark = () => pixelAt(page, b.x + b.w / 8 + 2, b.y + 2);
      const near = (px, hex) => px.every((c, i) => Math.abs(c - parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16)) <= 6);
      assert(near(await dark(), '#b58863'), `brown by default: ${await dark()}`);
      await page.click('#settings');
      await assertSeen(page, '#set-board', 'the board setting');
      const panel = await box(page, '#settings-panel');
      assert(panel.x >= 0 && panel.right <= vp.width && panel.bottom <= vp.height, `the menu inside the viewport ${JSON.stringify(panel)}`);
      await axe(page, `${size} settings menu`, { strict: true });
      await shot(page, `${size}-settings`);
      await page.selectOption('#set-board', 'blue');
      await page.selectOption('#set-scheme', 'dark');
      await page.uncheck('#set-coords');
      await page.keyboard.press('Escape');
      assert((await page.locator('#settings-panel').isVisible()) === false, 'Escape closes the menu');
      assert(near(await dark(), '#8ca2ad'), `blue board: ${await dark()}`);
      const bg = await pixelAt(page, 2, vp.height - 40);
      assert(bg.every((c) => c < 60), `a dark page: ${bg}`);
      assert((await page.locator('.round .coords-files').isVisible()) === false, 'coordinates hidden');
      await page.reload();
      await page.waitForSelector('.board-host cg-board piece');
      assert(near(await dark(), '#8ca2ad'), `still blue after a reload: ${await dark()}`);
      assert((await page.evaluate(() => document.documentElement.dataset.scheme)) === 'dark', 'still dark after a reload');
      assert((await page.locator('.round .coords-files').isVisible()) === false, 'coordinates still hidden');
      await typeMove(page, 'e4');
      await axe(page, `${size} dark game page`, { strict: true });
      await shot(page, `${size}-dark-game`);
      await page.goto(base);
      await axe(page, `${size} dark home`, { strict: true });
      await shot(page, `${size}-dark-home`);
      await page.context().close();
      // a system in dark mode: dark by default
      const sys = await newPage({ viewport: vp, colorScheme: 'dark' });
      await sys.goto(base);
      assert((await sys.evaluate(() => document.documentElement.dataset.scheme)) === 'dark', 'follows the system');
      await sys.context().close();
    });

  test(
    'online rematch in a timed game: both players go to the new room and nobody is told the opponent left',
    async () => {
      const a = await newPage();
      await a.goto(`${base}/?game=chess`);
      await a.selectOption('#friend-clock', '1');
      await a.selectOption('#friend-color', 'white');
      await a.click('#create-room');
      await a.waitForSelector('#invite-link');
      const b = await newPage();
      await b.goto(await a.inputValue('#invite-link'));
      await b.waitForSelector('#connection.conn-open');
      await typeMove(a, 'e4');
      await waitPlies(b, 1);
      await typeMove(b, 'e5');
      await waitPlies(a, 2);
      await b.click('#resign');
      await b.click('#dlg-yes');
      for (const p of [a, b]) await p.waitForSelector('#result-dialog');
      // from now on, every text either page draws that says the opponent has gone (the app navigates without a reload)
      for (const p of [a, b])
        await p.evaluate(() => {
          window.e2eGone = [];
          const look = () => {
            const text = document.querySelector('main')?.textContent ?? '';
            if (/disconnected|claim the win/i.test(text)) window.e2eGone.push(text.slice(0, 200));
          };
          new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
        });
      const old = a.url();
      // the winner offers from the result dialog, the loser accepts from it
      await a.click('#rd-rematch');
      await b.waitForSelector('#rd-rematch-accept');
      await b.click('#rd-rematch-accept');
      for (const p of [a, b]) await p.waitForFunction((u) => location.href !== u && /\/r\/\w+$/.test(location.pathname), old);
      assert(a.url() === b.url(), `both players in the same new room: ${a.url()} ${b.url()}`);
      for (const p of [a, b]) await p.waitForSelector('#connection.conn-open');
      await a.waitForSelector('text=You play Black');
      await b.waitForSelector('text=You play White');
      // the tab says whose turn it is, as on lichess
      await b.waitForFunction(() => document.title === 'Your turn · Chess · chessplayx');
      assert((await a.title()) === 'Chess · chessplayx', `not the offerer's turn: ${await a.title()}`);
      await typeMove(b, 'd4');
      await waitPlies(a, 1);
      await a.waitForFunction(() => document.title.startsWith('Your turn'));
      assert((await b.title()) === 'Chess · chessplayx', `B waits: ${await b.title()}`);
      await typeMove(a, 'd5');
      await waitPlies(b, 2);
      await a.waitForTimeout(1000);
      for (const [name, p] of [
        ['the offerer', a],
        ['the one who accepted', b],
      ]) {
        const gone = await p.evaluate(() => window.e2eGone);
        assert(gone.length === 0, `${name} was told the opponent left: ${JSON.stringify(gone.slice(0, 2))}`);
        assert((await p.locator('.pbar .dot.off').count()) === 0 && (await p.locator('.pbar .dot.on').count()) === 2, `${name}: both players shown connected`);
        const names = [await p.textContent('.pbar-top .pname'), await p.textContent('.pbar-bottom .pname')];
        assert(names.join('|') === 'Anonymous|You', `${name}: the bars name the opponent and the player: ${names}`);
      }
      for (const p of [a, b]) await p.context().close();
    },
    { online: true },
  );

  test(
    'online: an opponent gone is said after a short grace, and after a longer one to a page that never saw them',
    async () => {
      const { a, b } = await onlinePair('chess');
      await typeMove(a, 'e4');
      await waitPlies(b, 1);
      // B leaves on its move: A saw B, so A is told within the short grace (2.5 s), with the claim countdown
      await b.context().close();
      const left = Date.now();
      await a.waitForSelector('text=Your opponent has disconnected. You may claim the win in', { timeout: 8000 });
      const told = Date.now() - left;
      assert(told >= 2000, `not before the grace: ${told} ms`);
      // A reloads: this page has not seen B, so it waits for B to arrive before saying B has gone
      await a.reload();
      await a.waitForSelector('#connection.conn-open');
      const opened = Date.now();
      await a.waitForTimeout(4000);
      assert((await a.locator('text=Your opponent has disconnected').count()) === 0, 'not said while B may still be arriving');
      await a.waitForSelector('text=Your opponent has disconnected', { timeout: 12000 });
      assert(Date.now() - opened >= 8000, `said after the arrival grace (${Date.now() - opened} ms)`);
      await a.context().close();
    },
    { online: true },
  );

  test('premove against the computer: set while the engine thinks, played when it has answered', async () => {
    const page = await newPage();
    await page.goto(`${base}/?game=chess`);
    await page.selectOption('#ai-level', '8');
    await page.selectOption('#ai-color', 'white');
    await page.click('#start-ai');
    await page.waitForSelector('#typed-move');
    await typeMove(page, 'e4');
    // the engine's turn: a move made now is a premove, drawn and not sent
    await page.waitForSelector('text=The computer is thinking…');
    await clickMove(page, 'd2', 'd4');
    await page.waitForSelector('cg-board square.current-premove');
    await waitPlies(page, 3);
    const list = (await moveList(page)).split(' ');
    assert(list[0] === 'e4' && list[2] === 'd4', `the premove was played after the engine's answer: ${list}`);
    await page.context().close();
  });

  test(
    'premoves: played when the turn comes if legal, dropped if not (the server judges); moves slide into place',
    async () => {
      const { a, b } = await onlinePair('chess');
      // B's board animates A's move: a piece slides (chessgroundx marks it 'anim' while it moves)
      await b.evaluate(() => {
        window.e2eAnimated = [];
        new MutationObserver((ms) => {
          for (const m of ms) if (m.target.tagName === 'PIECE' && m.target.classList.contains('anim')) window.e2eAnimated.push(m.target.style.transform);
        }).observe(document.querySelector('cg-board'), { subtree: true, attributes: true, attributeFilter: ['class', 'style'] });
      });
      await clickMove(a, 'e2', 'e4');
      await waitPlies(b, 1);
      await b.waitForFunction(() => new Set(window.e2eAnimated).size >= 2, null, { timeout: 3000 });
      await idle(a);
      // A moves again while B thinks: a premove, drawn on the board
      await clickMove(a, 'd2', 'd4');
      await a.waitForSelector('cg-board square.current-premove');
      assert((await plies(a)) === 1, 'nothing sent yet');
      await typeMove(b, 'e5');
      await waitPlies(b, 3);
      // B can see the premove's event before A has drawn its own copy
      await waitPlies(a, 3);
      assert((await moveList(a)) === 'e4 e5 d4', `the premove was played: ${await moveList(a)}`);
      // a premove that the reply makes illegal: d4-d5 blocked by ...d5
      await idle(a);
      await clickMove(a, 'd4', 'd5');
      await a.waitForSelector('cg-board square.current-premove');
      await typeMove(b, 'd5');
      await waitPlies(a, 4);
      await a.waitForFunction(() => !document.querySelector('cg-board square.current-premove'));
      await a.waitForTimeout(300);
      assert((await plies(a)) === 4 && (await plies(b)) === 4, 'the refused premove was not played');
      assert((await a.locator('#typed-move').count()) === 1, "A's turn, to play by hand");
      await typeMove(a, 'dxe5');
      await waitPlies(b, 5);
      for (const p of [a, b]) await p.context().close();
    },
    { online: true },
  );
}
