/**
 * The analysis page (`/analysis/<id>`): the server's analysis of a game
 * (docs/protocol-http.md, `/api/analysis`) with the board, an evaluation bar beside
 * it, the evaluation graph under it (click to jump), the moves with their
 * judgements (?!, ?, ??) and the better move drawn as an arrow. The board is
 * also an analysis board: a move that is not the game's starts a line of
 * the player's own, with the engine's line shown live (`/api/eval`). The
 * server is the judge of every move (`/api/position` gives the legal moves).
 */
import * as api from '../api';
import { Board } from '../board/ground';
import { button, h } from '../dom';
import type { Page } from '../main';
import { iconButton } from '../roundParts';
import type { Color, PositionReply } from '../protocol';
import { VARIANT_INFO } from '../variants';
import { evaluate, getAnalysis, violationOf, type Analysis, type PositionEval, type Violation } from './api';
import { EvalBar, EvalGraph, evalText, winChances } from './graph';
import { s } from './strings';
import './analysis.css';

/** How often a running analysis is asked for its progress. */
const POLL_MS = 500;
/** Thinking time of the analysis board's live line. */
const LIVE_MS = 400;

const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' } as const;

/** The from/to squares of a UCI move (`e2e4`, `h10h9`, `e7e8q`). */
function squares(uci: string | null): { from: string; to: string } | null {
  const m = uci ? /^([a-p]\d{1,2})([a-p]\d{1,2})/.exec(uci) : null;
  return m?.[1] && m[2] ? { from: m[1], to: m[2] } : null;
}

/** The page's state and drawing. */
class AnalysisView {
  readonly el = h('div', { class: 'analysis' });
  private data: Analysis | null = null;
  private board: Board | null = null;
  private readonly bar = new EvalBar(s('bar'));
  private readonly graph = new EvalGraph(s('graph'), (ply) => this.leaveLine(ply));
  private readonly boardHost = h('div', { class: 'an-board' });
  private readonly progress = h('p', { class: 'an-progress', role: 'status', id: 'an-progress' });
  private readonly movesEl = h('div', { class: 'an-moves', id: 'an-moves', role: 'group', 'aria-label': s('moves') });
  private readonly info = h('div', { class: 'an-info', id: 'an-info', 'aria-live': 'polite' });
  private readonly lineBox = h('div', { class: 'an-line', id: 'an-line' });
  /** The player's own line (every move from the start) while exploring, else null. */
  private line: { moves: string[]; sans: string[]; violations: (Violation | null)[]; from: number } | null = null;
  /** The moves that would lose by the perpetual rules in the position shown (Xiangqi), as `[san, rule]`. */
  private losing: [string, Violation][] = [];
  /** Moves shown: a prefix of the game or of the player's line. */
  private cursor = 0;
  private orientation: Color = 'white';
  private positions = new Map<string, Promise<PositionReply>>();
  private live: PositionEval | 'busy' | 'thinking' | null = null;
  private shown = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private destroyed = false;

  constructor(private readonly id: string) {
    this.el.append(h('h1', {}, s('title')), this.progress);
    document.addEventListener('keydown', this.onKey);
    void this.poll();
  }

  destroy(): void {
    this.destroyed = true;
    if (this.timer) clearTimeout(this.timer);
    document.removeEventListener('keydown', this.onKey);
    this.board?.destroy();
  }

  private readonly onKey = (e: KeyboardEvent): void => {
    const tag = (e.target as HTMLElement | null)?.tagName;
    if (!this.data || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || e.altKey || e.ctrlKey || e.metaKey) return;
    const last = this.moves().length;
    const to = { ArrowLeft: this.cursor - 1, ArrowRight: this.cursor + 1, ArrowUp: 0, Home: 0, ArrowDown: last, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.goTo(Math.max(0, Math.min(last, to)));
  };

  private async poll(): Promise<void> {
    if (this.destroyed) return;
    try {
      const a = await getAnalysis(this.id);
      if (this.destroyed) return;
      const first = !this.data;
      this.data = a;
      if (first) this.mount(a);
      this.render();
      if (!a.complete) this.timer = setTimeout(() => void this.poll(), POLL_MS);
    } catch (e) {
      if (this.destroyed) return;
      if (e instanceof api.ApiError && e.code === 'not_found') {
        this.progress.replaceChildren(s('missing'), ' ', h('a', { href: '/' }, s('home')));
        return;
      }
      this.progress.textContent = e instanceof Error ? e.message : String(e);
      this.timer = setTimeout(() => void this.poll(), POLL_MS * 4);
    }
  }

  /** Builds the layout once the game is known. */
  private mount(a: Analysis): void {
    const nav = h(
      'div',
      { class: 'an-nav row' },
      // the game page's icons, so both pages step through moves with the same buttons
      iconButton('first', s('first'), () => this.goTo(0), { id: 'an-first' }),
      iconButton('prev', s('prev'), () => this.goTo(Math.max(0, this.cursor - 1)), { id: 'an-prev' }),
      iconButton('next', s('next'), () => this.goTo(Math.min(this.moves().length, this.cursor + 1)), { id: 'an-next' }),
      iconButton('last', s('last'), () => this.goTo(this.moves().length), { id: 'an-last' }),
      iconButton('flip', s('flip'), () => this.flip(), { id: 'an-flip' }),
    );
    this.el.append(
      h(
        'div',
        { class: 'an-layout' },
        h('div', { class: 'an-main' }, h('div', { class: 'an-boardrow' }, this.bar.el, this.boardHost), this.graph.el, nav),
        h('div', { class: 'an-panel' }, this.info, this.lineBox, h('h2', {}, s('moves')), this.movesEl),
      ),
    );
    const variant = VARIANT_INFO[a.variant];
    this.board = new Board(this.boardHost, {
      variant,
      orientation: this.orientation,
      onMove: (uci) => void this.onMove(uci),
      label: s('title'),
    });
    void this.showPosition();
  }

  /** The moves of what is shown: the player's line, or the game. */
  private moves(): readonly string[] {
    return this.line?.moves ?? this.data?.ucis ?? [];
  }
  private sans(): readonly string[] {
    return this.line?.sans ?? this.data?.sans ?? [];
  }

  private flip(): void {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.board?.flip();
    this.render();
  }

  /** Goes to a position of the game, leaving the player's line. */
  private leaveLine(ply: number): void {
    const left = this.line !== null;
    this.line = null;
    this.live = null;
    // the same ply number in the game may be another position than the line's
    if (left && ply === this.cursor) {
      this.render();
      void this.showPosition();
    } else this.goTo(ply);
  }

  private goTo(ply: number): void {
    if (ply === this.cursor) return;
    this.cursor = ply;
    this.live = null;
    this.losing = [];
    this.render();
    void this.showPosition();
  }

  /** The server's view of a position (cached): FEN, legal moves, check. */
  private position(moves: readonly string[]): Promise<PositionReply> {
    const key = moves.join(' ');
    let p = this.positions.get(key);
    if (!p) {
      const a = this.data;
      if (!a) return Promise.reject(new Error('no game'));
      p = api.position(a.variant, a.fen, moves);
      p.catch(() => this.positions.delete(key));
      this.positions.set(key, p);
    }
    return p;
  }

  private async showPosition(): Promise<void> {
    const moves = this.moves().slice(0, this.cursor);
    const want = ++this.shown;
    let reply: PositionReply;
    try {
      reply = await this.position(moves);
    } catch (e) {
      this.info.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    if (want !== this.shown || this.destroyed) return;
    const st = reply.status;
    this.losing = st.outcome
      ? []
      : reply.moves.flatMap((m): [string, Violation][] => {
          const v = violationOf(reply.warnings, m.uci);
          return v ? [[m.san, v]] : [];
        });
    this.board?.set({
      fen: st.fen,
      turn: st.turn,
      check: st.check,
      lastMove: squares(moves[moves.length - 1] ?? null),
      moves: reply.moves,
      movable: st.outcome ? null : st.turn,
    });
    this.render();
    if (this.line && this.cursor > this.line.from) void this.liveLine(moves, want);
  }

  /** A move made on the board: the game's next move steps on; any other starts (or extends) the player's line. */
  private async onMove(uci: string): Promise<void> {
    const a = this.data;
    if (!a || !uci) return;
    const moves = this.moves();
    if (moves[this.cursor] === uci) {
      this.goTo(this.cursor + 1);
      return;
    }
    const before = await this.position(moves.slice(0, this.cursor)).catch(() => null);
    const san = before?.moves.find((m) => m.uci === uci)?.san;
    if (!san) {
      void this.showPosition();
      return;
    }
    const from = this.line?.from ?? this.cursor;
    // a move of the player's own that loses by the perpetual rules is marked as the game's are
    const old = this.line?.violations ?? [];
    const violations = [...Array.from({ length: this.cursor }, (_, i) => old[i] ?? null), violationOf(before?.warnings ?? [], uci)];
    this.line = { moves: [...moves.slice(0, this.cursor), uci], sans: [...this.sans().slice(0, this.cursor), san], violations, from: Math.min(from, this.cursor) };
    this.cursor += 1;
    this.live = 'thinking';
    this.losing = [];
    this.render();
    void this.showPosition();
  }

  /** Asks the engine about a position of the player's line. */
  private async liveLine(moves: readonly string[], want: number): Promise<void> {
    const a = this.data;
    if (!a) return;
    try {
      const e = await evaluate(a.variant, a.fen, moves, LIVE_MS);
      if (want === this.shown && !this.destroyed) this.live = e;
    } catch (e) {
      if (want === this.shown && !this.destroyed) this.live = e instanceof api.ApiError && e.code === 'unavailable' ? 'busy' : null;
    }
    if (want === this.shown && !this.destroyed) this.render();
  }

  /** The evaluation of what is shown, if known. */
  private current(): PositionEval | null {
    if (this.line && this.cursor > this.line.from) return typeof this.live === 'object' ? this.live : null;
    return this.data?.positions[this.cursor] ?? null;
  }

  private render(): void {
    const a = this.data;
    if (!a) return;
    this.progress.textContent = a.complete ? s('complete') : s('running', { done: a.done, total: a.total });
    this.progress.classList.toggle('done', a.complete);
    const cur = this.current();
    this.bar.update(cur?.eval ?? null, this.orientation === 'white');
    this.graph.update({
      chances: a.positions.map((p) => winChances(p.eval)),
      judgements: a.moves.map((m) => m.judgement),
      current: this.line ? Math.min(this.line.from, a.ucis.length) : this.cursor,
    });
    this.renderMoves(a);
    this.renderInfo(a, cur);
  }

  private renderMoves(a: Analysis): void {
    const moves = this.moves();
    const sans = this.sans();
    const blackFirst = a.fen.split(' ')[1] === 'b';
    const startNo = Number(a.fen.split(' ').at(-1)) || 1;
    const items: HTMLElement[] = [];
    moves.forEach((uci, i) => {
      const ownLine = this.line !== null && i >= this.line.from;
      const white = (i + (blackFirst ? 1 : 0)) % 2 === 0;
      const no = startNo + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
      if (white) items.push(h('span', { class: 'an-num' }, `${no}.`));
      else if (i === 0) items.push(h('span', { class: 'an-num' }, `${no}…`), h('span', { class: 'an-gap' }));
      const m = ownLine ? null : a.moves[i];
      const j = m?.judgement ?? null;
      const violation = ownLine ? (this.line?.violations[i] ?? null) : (m?.violation ?? null);
      const label = `${sans[i] ?? uci}${j ? MARKS[j] : ''}${violation ? ' ⚠' : ''}`;
      const b = button(label, () => this.goTo(i + 1), {
        class: `an-move${j ? ` an-${j}` : ''}${ownLine ? ' an-own' : ''}`,
        'aria-current': this.cursor === i + 1 ? 'true' : undefined,
        title: [j ? s(j) : '', violation ? s(violation) : ''].filter(Boolean).join(' · ') || undefined,
        'data-ply': String(i + 1),
      });
      items.push(b);
    });
    this.movesEl.replaceChildren(...items);
    this.movesEl.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }

  private renderInfo(a: Analysis, cur: PositionEval | null): void {
    const parts: HTMLElement[] = [];
    const arrows: { from: string; to: string; brush: string }[] = [];
    const own = this.line !== null && this.cursor > this.line.from;
    const m = !own && this.cursor > 0 ? a.moves[this.cursor - 1] : undefined;
    if (m) {
      const head = `${m.san}${m.judgement ? MARKS[m.judgement] : ''}`;
      const verdict = [m.judgement ? s(m.judgement) : '', m.violation ? s(m.violation) : ''].filter(Boolean).join('. ');
      parts.push(h('p', { class: `an-verdict${m.judgement ? ` an-${m.judgement}` : ''}` }, h('strong', {}, head), verdict ? ` ${verdict}.` : ''));
      if (m.judgement && m.better_san) parts.push(h('p', { class: 'an-better' }, s('best', { move: m.better_san })));
      const better = m.judgement ? squares(m.better) : null;
      if (better) arrows.push({ ...better, brush: 'green' });
    } else if (!own && this.cursor === 0) parts.push(h('p', {}, s('start')));
    const ownViolation = own && this.line ? this.line.violations[this.cursor - 1] : null;
    if (ownViolation) parts.push(h('p', { class: 'an-verdict an-violation' }, h('strong', {}, this.line?.sans[this.cursor - 1] ?? ''), ` ${s(ownViolation)}.`));
    // Xiangqi: the moves from here that the perpetual check and chase rules would punish
    for (const rule of ['perpetual_check', 'perpetual_chase'] as const) {
      const sans = this.losing.filter(([, v]) => v === rule).map(([san]) => san);
      if (sans.length) parts.push(h('p', { class: 'an-losing' }, s(rule === 'perpetual_check' ? 'loseCheck' : 'loseChase', { moves: sans.join(', ') })));
    }
    if (own && this.line) parts.push(h('p', { class: 'an-explore' }, s('explore', { ply: this.line.from + 1 }), ' ', button(s('back'), () => this.leaveLine(this.line?.from ?? 0), { class: 'small', id: 'an-back' })));
    this.info.replaceChildren(...parts);
    let text = '';
    if (own && this.live === 'thinking') text = s('thinking');
    else if (own && this.live === 'busy') text = s('busy');
    else if (cur?.eval) {
      const line = cur.pv_san.slice(0, 8).join(' ');
      text = `${evalText(cur.eval)} ${line ? s('engine', { line }) : ''}${cur.depth ? ` (${s('depth', { depth: cur.depth })})` : ''}`;
    } else if (!a.complete) text = s('thinking');
    this.lineBox.textContent = text;
    if (arrows.length === 0) {
      const best = squares(cur?.best ?? null);
      if (best) arrows.push({ ...best, brush: 'blue' });
    }
    this.board?.arrows(arrows);
  }
}

/** The analysis page of analysis `id` (the client POSTs first to get it). */
export function analysisPage(id: string): Page {
  const view = new AnalysisView(id);
  return { el: view.el, title: s('title'), destroy: () => view.destroy() };
}
