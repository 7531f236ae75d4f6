// A tour of every page at desktop and phone size: each is checked with
// axe-core (zero violations of any impact), for horizontal scrolling, and
// saved as a screenshot in web/e2e-artifacts/ (the CI artifacts listed in
// docs/web.md).
import { DESKTOP, PHONE } from './layout.mjs';
import { assert, sideScroll, typeMove } from './page.mjs';

/** Registers the tests with the runner's `test`. */
export function tourTests({ test, newPage, base, shot, startLocal, axe }) {
  for (const [size, vp] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])
    test(`tour at ${size} size: every page passes axe with no violation, fits the width, and is photographed`, async () => {
      const page = await newPage({ viewport: vp });
      const seen = async (name, ready) => {
        await page.waitForSelector(ready);
        assert(!(await sideScroll(page)), `${size} ${name}: no horizontal scroll`);
        await axe(page, `${size} ${name}`, { strict: true });
        await shot(page, `tour-${size}-${name}`);
      };
      await page.goto(base);
      await seen('home', '.variant-card .preview piece');
      await page.goto(`${base}/rules`);
      await seen('rules-index', 'main a[href="/rules/xiangqi"]');
      for (const g of ['chess', 'horde', 'atomic', 'xiangqi']) {
        await page.goto(`${base}/rules/${g}`);
        await seen(`rules-${g}`, 'figure.diagram piece');
      }
      await page.goto(`${base}/r/doesnotexist`);
      await seen('unknown-room', '#no-such-game');
      await page.goto(`${base}/analysis/none`);
      await seen('analysis', 'main h1');
      // an online room waiting for the opponent (invitation and spectator links)
      await page.goto(`${base}/?game=chess`);
      await page.click('#create-room');
      await seen('online-waiting', '#invite-link');
      // games under way: Xiangqi on one device, Atomic after an explosion, chess against the computer
      await startLocal(page, 'xiangqi');
      for (const m of ['h3e3', 'h10g8']) await typeMove(page, m);
      await seen('xiangqi-game', 'ol.moves li');
      await startLocal(page, 'atomic');
      for (const m of ['g1f3', 'd7d5', 'f3e5', 'c8g4', 'e5g4']) await typeMove(page, m);
      await seen('atomic-explosion', '.explosion');
      await page.goto(`${base}/?game=chess`);
      await page.selectOption('#ai-color', 'white');
      await page.click('#start-ai');
      await page.waitForSelector('#typed-move');
      await typeMove(page, 'e4');
      await seen('ai-game', '.pbar-top .pname');
      // the analysis of that game, as "Analyse" opens it
      const room = new URL(page.url()).pathname.split('/').pop();
      const { id } = await page.evaluate(async (r) => (await fetch('/api/analysis', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ room: r }) })).json(), room);
      await page.goto(`${base}/analysis/${id}`);
      await seen('analysis-game', '.an-board cg-board piece');
      await page.context().close();
    });

  test('phone width: 375 px, rules pages, accessibility', async () => {
    const page = await newPage({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
    await page.goto(base);
    await axe(page, 'home', { strict: true });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 375, `no horizontal scroll on home (${width})`);
    await shot(page, 'phone-home');
    await startLocal(page, 'xiangqi');
    await typeMove(page, 'h3e3');
    await axe(page, 'game', { strict: true });
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

  test('rules pages in Vietnamese, Polish and Portuguese: axe with no violation, the review date once, every source a link', async () => {
    const label = { vi: 'Luật được xem lại lần cuối', pl: 'Zasady ostatnio sprawdzono', pt: 'Regras revisadas pela última vez' };
    for (const [l, said] of Object.entries(label)) {
      const page = await newPage({ viewport: DESKTOP });
      await page.addInitScript((lang) => localStorage.setItem('cpx.lang', lang), l);
      for (const g of ['chess', 'horde', 'atomic', 'xiangqi']) {
        await page.goto(`${base}/rules/${g}`);
        await page.waitForSelector('figure.diagram piece');
        assert((await page.evaluate(() => document.documentElement.lang)) === l, `${l} ${g}: the page is in ${l}`);
        assert(!(await sideScroll(page)), `${l} ${g}: no horizontal scroll`);
        await axe(page, `rules ${l} ${g}`, { strict: true });
        const text = await page.textContent('article.rules');
        assert(text.split(said).length === 2 && !/\d{4}-\d{2}-\d{2}/.test(text), `${l} ${g}: the review date once, in words`);
        const sources = await page.evaluate(() => {
          const hs = Array.from(document.querySelectorAll('article.rules h2'));
          const ul = hs.at(-1)?.nextElementSibling;
          return ul?.tagName === 'UL' ? Array.from(ul.querySelectorAll('li'), (li) => li.querySelectorAll('a[href^="https://"]').length) : [];
        });
        assert(sources.length > 0 && sources.every((n) => n > 0), `${l} ${g}: every source is a link ${JSON.stringify(sources)}`);
        assert((await page.locator('article.rules th:empty').count()) === 0, `${l} ${g}: no empty table header`);
      }
      await shot(page, `rules-${l}-xiangqi`);
      await page.context().close();
    }
  });
}
