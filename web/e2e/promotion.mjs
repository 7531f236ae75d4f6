// Browser tests of the promotion picker as it is drawn, at desktop and phone
// size, following the steps of issue 11 (`/?game=chess&fen=…`, Start, a7 to
// a8): each choice must show the mover's piece picture, read from the
// pixels of its own screenshot, in chess and in Horde, for White and Black.
// A blank white box (the bug the issue reports) has no dark pixel at all.
import { DESKTOP, PHONE } from './layout.mjs';
import { assert, box, clickMove, inkOf, pieceOn, waitPlies } from './page.mjs';

/** Registers the tests with the runner's `test`. */
export function promotionTests({ test, newPage, base, shot, axe }) {
  const cases = [
    { game: 'chess', fen: '8/P5k1/8/8/8/8/6K1/8 w - - 0 1', from: 'a7', to: 'a8', color: 'white', pick: 'q', want: 'white q-piece' },
    { game: 'horde', fen: '8/P5k1/8/8/8/8/8/8 w - - 0 1', from: 'a7', to: 'a8', color: 'white', pick: 'n', want: 'white n-piece' },
    { game: 'chess', fen: '8/6k1/8/8/8/8/p5K1/8 b - - 0 1', from: 'a2', to: 'a1', color: 'black', pick: 'r', want: 'black r-piece' },
  ];
  for (const [size, vp, scheme] of [
    ['desktop', DESKTOP, 'light'],
    ['phone', PHONE, 'dark'],
  ])
    test(`promotion picker at ${size} size: a piece picture drawn in each choice (chess and Horde, White and Black)`, async () => {
      // the phone follows a dark system: the picker dims the board instead of lighting it up
      const page = await newPage({ viewport: vp, colorScheme: scheme });
      for (const c of cases) {
        const what = `${size} ${c.game} ${c.color}`;
        await page.goto(`${base}/?game=${c.game}&fen=${encodeURIComponent(c.fen)}`);
        // "Start", as the issue says: one button of that name (a strict locator), the same-device one
        const start = page.getByRole('button', { name: 'Start' });
        assert((await start.getAttribute('id')) === 'start-local', 'the one Start button starts a same-device game');
        await start.click();
        await page.waitForSelector('#typed-move');
        await clickMove(page, c.from, c.to);
        await page.waitForSelector('.promotion-picker button.promo');
        const buttons = page.locator('.promotion-picker button.promo');
        const n = await buttons.count();
        assert(n === 4, `${what}: four choices (${n})`);
        const signatures = new Set();
        for (let i = 0; i < n; i++) {
          const b = buttons.nth(i);
          const cls = await b.getAttribute('class');
          assert(cls.includes(c.color), `${what}: a choice of the mover's pieces: ${cls}`);
          const r = await box(page, `.promotion-picker button.promo:nth-of-type(${i + 1})`);
          assert(r && r.w >= 40 && r.x >= 0 && r.y >= 0 && r.right <= vp.width && r.bottom <= vp.height, `${what}: choice ${cls} drawn inside the viewport ${JSON.stringify(r)}`);
          const ink = await inkOf(page, b);
          // a white piece is a white shape with a black outline; a black piece is mostly black
          const minDark = c.color === 'white' ? 0.03 : 0.15;
          assert(ink.dark >= minDark && ink.light >= 0.1, `${what}: a piece picture drawn in ${cls} (dark ${ink.dark.toFixed(3)}, light ${ink.light.toFixed(3)})`);
          signatures.add(ink.signature);
        }
        assert(signatures.size === 4, `${what}: four different pictures (${signatures.size})`);
        // the choices are buttons a screen reader reaches: not inside the board's picture (axe: nested-interactive)
        await axe(page, `${what} promotion picker`, { strict: true });
        if (scheme === 'dark') {
          const veil = await page.evaluate(() => getComputedStyle(document.querySelector('.promotion-picker')).backgroundColor);
          const [r, g, bl] = veil.match(/[\d.]+/g).map(Number);
          assert(r + g + bl < 150, `${what}: a dark veil over the board (${veil})`);
        }
        await shot(page, `${size}-promotion-${c.game}-${c.color}`);
        // Escape takes the pawn back (the focus is on the first choice); the picker opens again
        await page.keyboard.press('Escape');
        await page.waitForSelector('.promotion-picker', { state: 'detached' });
        assert((await pieceOn(page, c.from)) === `${c.color} p-piece` && (await page.locator('ol.moves li').count()) === 0, `${what}: Escape cancelled the promotion: ${await pieceOn(page, c.from)} ${await pieceOn(page, c.to)} ${await page.evaluate(() => document.activeElement?.className)}`);
        await clickMove(page, c.from, c.to);
        await page.click(`.promotion-picker .promo-${c.pick}`);
        await waitPlies(page, 1);
        // the pawn that went up slides away under chessgroundx's animation: the piece left there after it
        let on = null;
        for (let i = 0; i < 30 && on !== c.want; i++) {
          on = await pieceOn(page, c.to);
          if (on !== c.want) await page.waitForTimeout(100);
        }
        assert(on === c.want, `${what}: the chosen piece stands on ${c.to}: ${on}`);
      }
      await page.context().close();
    });
}
