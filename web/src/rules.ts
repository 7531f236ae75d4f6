/**
 * Rules pages: the Markdown files of src/content/rules/<lang>/<game>.md
 * (front matter `title`, `reviewed`; ```board <variant> <fen> [moves …]```
 * blocks drawn as small static boards), in the current language.
 */
import { Marked } from 'marked';
import * as api from './api';
import { Board } from './board/ground';
import { h } from './dom';
import { LANG_NAMES, lang, t, type Key, type Lang } from './i18n';
import type { Page } from './main';
import { VARIANTS, VARIANT_INFO, isVariant, type VariantName } from './variants';
import { splitUci } from './round';

const FILES = import.meta.glob('./content/rules/*/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** A parsed page. */
export interface RulesDoc {
  title: string;
  reviewed: string;
  body: string;
}

/** Splits the front matter (`key: value` lines between `---`) from the Markdown. */
export function parseFrontMatter(src: string): RulesDoc {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(src);
  const meta: Record<string, string> = {};
  if (m?.[1])
    for (const line of m[1].split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i > 0) meta[line.slice(0, i).trim()] = line.slice(i + 1).trim().replace(/^["']|["']$/g, '');
    }
  return { title: meta.title ?? '', reviewed: meta.reviewed ?? '', body: m ? src.slice(m[0].length) : src };
}

/** A diagram block: ```board <variant> <fen…> [moves m1 m2 …]```. */
export interface Diagram {
  variant: VariantName;
  fen: string;
  moves: string[];
}

/** Reads the info string of a board block, `null` when it is not one. */
export function parseDiagram(info: string, body = ''): Diagram | null {
  const words = `${info} ${body}`.trim().split(/\s+/);
  if (words[0] !== 'board' || !isVariant(words[1])) return null;
  const rest = words.slice(2);
  const mi = rest.indexOf('moves');
  const fenWords = mi >= 0 ? rest.slice(0, mi) : rest;
  const moves = mi >= 0 ? rest.slice(mi + 1) : [];
  if (fenWords.length === 0) return null;
  return { variant: words[1], fen: fenWords.join(' '), moves };
}

/** The source of a page, if written. */
export function rulesSource(l: Lang, game: VariantName): string | undefined {
  return FILES[`./content/rules/${l}/${game}.md`];
}

/** Markdown → HTML with diagrams as placeholders; links to `/#/play/<game>` become `/?game=<game>`. */
export function renderMarkdown(body: string): string {
  const md = new Marked();
  md.use({
    renderer: {
      code(token) {
        const d = parseDiagram(token.lang ?? '', token.text);
        if (!d) return false;
        const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
        return `<figure class="diagram" data-variant="${d.variant}" data-fen="${attr(d.fen)}" data-moves="${attr(d.moves.join(' '))}"></figure>`;
      },
    },
  });
  return (
    (md.parse(body, { async: false }) as string)
      .replace(/href="\/#\/play\/(\w+)"/g, 'href="/?game=$1"')
      // a key–value table (`| | |` header): no header row of empty cells (axe: empty-table-header)
      .replace(/<thead>\s*<tr>\s*(?:<th[^>]*>\s*<\/th>\s*)+<\/tr>\s*<\/thead>\s*/g, '')
      // sources open in a new tab
      .replace(/<a href="(https?:[^"]+)">/g, '<a href="$1" rel="noopener" target="_blank">')
  );
}

function mountDiagrams(root: HTMLElement): () => void {
  const boards: Board[] = [];
  for (const fig of Array.from(root.querySelectorAll<HTMLElement>('figure.diagram'))) {
    const variant = fig.dataset.variant;
    if (!isVariant(variant)) continue;
    const fen = fig.dataset.fen ?? '';
    const moves = (fig.dataset.moves ?? '').split(' ').filter(Boolean);
    const v = VARIANT_INFO[variant];
    const host = h('div', { class: 'mini' });
    const caption = h('figcaption', {}, moves.length ? t('rules.diagramMoves', { moves: moves.join(' ') }) : '');
    fig.append(host, caption);
    const board = new Board(host, { variant: v, fen, orientation: 'white', viewOnly: true, label: t('rules.diagram', { game: t(`variant.${variant}` as Key) }) });
    boards.push(board);
    board.set({ fen, turn: 'white', check: false, lastMove: null, moves: [], movable: null });
    if (moves.length)
      api
        .position(variant, fen, moves)
        .then((r) => {
          const last = moves[moves.length - 1];
          const lm = last ? splitUci(last) : null;
          board.set({ fen: r.status.fen, turn: r.status.turn, check: r.status.check, lastMove: lm, moves: [], movable: null });
        })
        .then(async () => {
          // SAN of each move, from the server, one prefix at a time
          const sans: string[] = [];
          for (let i = 1; i <= moves.length; i++) sans.push((await api.position(variant, fen, moves.slice(0, i))).status.san ?? '');
          caption.textContent = t('rules.diagramMoves', { moves: sans.join(' ') });
        })
        .catch(() => undefined);
  }
  return () => boards.forEach((b) => b.destroy());
}

/** The front matter's `2026-11-29` in the page's language ("29 November 2026"). */
export function reviewedDate(iso: string): string {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : null;
  if (!d || Number.isNaN(d.getTime())) return iso || '?';
  return new Intl.DateTimeFormat(lang(), { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

/** `/rules/<game>`. */
export function rulesPage(game: VariantName): Page {
  const l = lang();
  const src = rulesSource(l, game) ?? rulesSource('en', game);
  const play = h('a', { href: `/?game=${game}`, class: 'btn primary' }, t('rules.play', { game: t(`variant.${game}` as Key) }));
  if (!src)
    return { el: h('article', { class: 'rules' }, h('h1', {}, t(`variant.${game}` as Key)), h('p', { class: 'notice', role: 'status' }, t('rules.missing')), play) };
  const doc = parseFrontMatter(src);
  const el = h('article', { class: 'rules' });
  if (!rulesSource(l, game)) el.append(h('p', { class: 'notice', role: 'status' }, t('rules.fallback', { lang: LANG_NAMES[l] })));
  const body = h('div', { class: 'md' });
  body.innerHTML = renderMarkdown(doc.body);
  if (!body.querySelector('h1')) body.prepend(h('h1', {}, doc.title));
  el.append(body, h('p', {}, play), h('p', { class: 'muted' }, t('rules.reviewed', { date: reviewedDate(doc.reviewed) })));
  const destroy = mountDiagrams(body);
  return { el, title: doc.title || t(`variant.${game}` as Key), destroy };
}

/** `/rules`: links to each game's page. */
export function rulesIndex(): Page {
  const ul = h('ul', { class: 'rules-index' });
  for (const v of VARIANTS) {
    const has = !!rulesSource(lang(), v);
    ul.append(h('li', {}, h('a', { href: `/rules/${v}` }, t(`variant.${v}` as Key)), has ? '' : h('span', { class: 'muted' }, ` (${t('rules.notTranslated')})`)));
  }
  return { el: h('div', { class: 'rules' }, h('h1', {}, t('rules.title')), ul), title: t('rules.title') };
}
