// Browser tests of the one game page over the room protocol: same-device and
// computer games as rooms (flag against a lone king, reload, continue link,
// export), unknown rooms, move numbers from a FEN, the footer version.
import { assert, assertSeen, drawnPieces, exported, moveList, typeMove, waitPlies } from './page.mjs';

/** Registers the tests with the runner's `test`, which gives pages (`newPage`) on the server at `base`. */
export function roomTests({ test, newPage, base, shot, startLocal }) {
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
    const saved = await page.textContent('.saved li .saved-link');
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
    // the player's own clock went under 10 s: one low-time warning, then the end
    const heard = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name));
    assert(heard.filter((n) => n === 'cpx-sound:lowtime').length === 1 && heard.includes('cpx-sound:end'), `low-time warning and end sounds: ${heard}`);
    await shot(page, 'ai-flag-draw');
    for (const p of [page, other]) await p.context().close();
  });

  test('a game from a FEN numbers its moves from the FEN; the footer version has no doubled v', async () => {
    const page = await newPage();
    await startLocal(page, 'chess', '4k3/8/8/8/8/8/8/R3K3 b - - 0 23');
    await typeMove(page, 'Kd7');
    await typeMove(page, 'Ra7+');
    const items = await page.evaluate(() =>
      Array.from(document.querySelectorAll('ol.moves li'), (li) => ({ value: li.value, cls: li.className, text: li.textContent.trim(), n: getComputedStyle(li, '::before').content })),
    );
    // drawn: "23" then an empty White cell then Kd7; "24" Ra7+
    assert(items[0]?.value === 23 && items[0].cls === 'b first' && items[0].n === '"23"' && items[1]?.value === 24 && items[1].cls === 'w' && items[1].n === '"24"', `numbered from the FEN: ${JSON.stringify(items)}`);
    const cells = await page.evaluate(() => Array.from(document.querySelectorAll('ol.moves button'), (b) => Math.round(b.getBoundingClientRect().left)));
    assert(cells[0] > cells[1], `Black's first move in the Black column, right of White's next: ${cells}`);
    await page.waitForFunction(() => /Version \S/.test(document.getElementById('version')?.textContent ?? ''));
    const version = await page.textContent('#version');
    assert(/^Version \d/.test(version), `footer: ${version}`);
    await page.context().close();
  });

  test('stepping back draws the check of the position shown (8×8 and Xiangqi), and after a reload', async () => {
    const page = await newPage();
    const checked = () => page.evaluate(() => Array.from(document.querySelectorAll('.board-host cg-board square.check'), (sq) => sq.cgKey ?? 'x').length);
    const stepTo = async (n) => {
      await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
      await page.keyboard.press('End');
      for (let i = await page.locator('ol.moves li').count(); i > n; i--) await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((k) => (k === 0 ? !document.querySelector('ol.moves .current') : document.querySelectorAll('ol.moves li')[k - 1]?.querySelector('.current')), n);
      await page.waitForTimeout(100);
    };
    await startLocal(page, 'chess');
    for (const m of ['e4', 'f5', 'Qh5+', 'g6', 'Nc3']) await typeMove(page, m);
    await stepTo(3);
    assert((await checked()) === 1, 'after 2.Qh5+ the black king is drawn in check');
    await stepTo(2);
    assert((await checked()) === 0, 'no check after 1...f5');
    await page.reload();
    await waitPlies(page, 5);
    await stepTo(3);
    assert((await checked()) === 1, 'still drawn after a reload (from the move\'s +)');
    await startLocal(page, 'xiangqi', '5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1');
    for (const m of ['h9h10', 'f10f9', 'h10h9']) await typeMove(page, m);
    await stepTo(1);
    assert((await checked()) === 1, 'the Xiangqi general drawn in check after the first chariot check');
    await stepTo(2);
    assert((await checked()) === 0, 'not after the general stepped away');
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
}
