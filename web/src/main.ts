/** The app: layout, routes, language switch and footer. */
import './style.css';
import * as api from './api';
import { go, h } from './dom';
import { home } from './home';
import { analysisPage } from './analysis/page';
import { LANGS, LANG_NAMES, initLang, lang, onLangChange, setLang, t, type Lang } from './i18n';
import { roomPage } from './room';
import { rulesIndex, rulesPage } from './rules';
import { applyPrefs, settingsMenu, watchSystemScheme } from './settings';
import { unlockAudioOnGesture } from './sound';
import { isVariant } from './variants';

/** A mounted page: `destroy` stops its timers and sockets. */
export interface Page {
  el: HTMLElement;
  /** The document title's first part. */
  title?: string;
  destroy?: () => void;
}

let current: Page | null = null;
let versionText = '';

function route(): Page {
  const path = location.pathname;
  let m: RegExpExecArray | null;
  // links saved before same-device games became rooms: the game page of that id (not found if it was never a room)
  if ((m = /^\/play\/([\w-]+)$/.exec(path)) && m[1]) return roomPage(m[1], null);
  if ((m = /^\/r\/([\w-]+)$/.exec(path)) && m[1]) return roomPage(m[1], new URLSearchParams(location.search).get('invite'));
  if ((m = /^\/rules\/(\w+)$/.exec(path)) && isVariant(m[1])) return rulesPage(m[1]);
  if (path === '/rules' || path === '/rules/') return rulesIndex();
  if ((m = /^\/analysis\/([\w-]+)$/.exec(path)) && m[1]) return analysisPage(m[1]);
  return home();
}

function header(): HTMLElement {
  const sel = h('select', { id: 'lang', 'aria-label': t('nav.language') });
  for (const l of LANGS) sel.append(h('option', { value: l, selected: l === lang() }, LANG_NAMES[l]));
  sel.addEventListener('change', () => setLang(sel.value as Lang));
  const link = (href: string, text: string): HTMLAnchorElement => h('a', { href }, text);
  return h(
    'header',
    { class: 'top' },
    h('a', { href: '/', class: 'brand' }, 'chessplayx'),
    h('nav', { 'aria-label': t('nav.main') }, link('/', t('nav.play')), link('/rules', t('nav.rules'))),
    h('div', { class: 'settings' }, h('label', { class: 'sr-only', for: 'lang' }, t('nav.language')), sel, settingsMenu()),
  );
}

function footer(): HTMLElement {
  return h('footer', {}, h('span', { id: 'version' }, t('footer.version', { version: versionText || '…' })), ' · ', h('a', { href: '/rules' }, t('nav.rules')));
}

/** Renders the whole app for the current URL and language. */
function render(): void {
  current?.destroy?.();
  const root = document.getElementById('app');
  if (!root) return;
  current = route();
  const main = h('main', { id: 'main' }, current.el);
  root.replaceChildren(h('a', { href: '#main', class: 'skip' }, t('nav.skip')), header(), main, footer());
  document.title = current.title ? `${current.title} · chessplayx` : 'chessplayx';
}

document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const href = a.getAttribute('href');
  if (!href || !href.startsWith('/') || a.target || a.hasAttribute('download') || href.startsWith('/api/')) return;
  e.preventDefault();
  go(href);
});
window.addEventListener('popstate', render);

initLang();
applyPrefs();
watchSystemScheme();
unlockAudioOnGesture();
onLangChange(render);
render();
api
  .version()
  .then((v) => {
    // the server's line is "0.1.0 · commit"; an older server wrote "v0.1.0": never show the v twice
    versionText = v.replace(/^v(?=\d)/, '');
    const el = document.getElementById('version');
    if (el) el.textContent = t('footer.version', { version: versionText });
  })
  .catch(() => {
    versionText = '?';
  });
