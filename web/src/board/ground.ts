/**
 * The only file that imports chessgroundx: a board that shows what the
 * server says (position, legal moves as `dests`, last move, check) and
 * reports the UCI of the move the user makes. No rules here.
 */
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Config } from 'chessgroundx/config';
import type { DrawShape } from 'chessgroundx/draw';
import { premove } from 'chessgroundx/premove';
import type * as cg from 'chessgroundx/types';
import 'chessgroundx/assets/chessground.base.css';
import 'chessgroundx/assets/chessground.brown.css';
import cburnett from 'chessgroundx/assets/chessground.cburnett.css?raw';
import type { Color, MoveInfo } from '../protocol';
import type { VariantInfo } from '../variants';
import { renderCoords } from './coords';
import { squareToKey } from './keys';
import { westernCss, xiangqiCss } from './pieces';

/** How Xiangqi pieces are drawn. */
export type GlyphStyle = 'native' | 'western';

let styleEl: HTMLStyleElement | null = null;
/** Installs (or switches) the piece CSS; called once per glyph choice. */
export function installPieceCss(glyphs: GlyphStyle): void {
  if (!styleEl) {
    styleEl = document.createElement('style');
    styleEl.id = 'piece-css';
    document.head.appendChild(styleEl);
  }
  styleEl.textContent = westernCss(cburnett) + '\n' + xiangqiCss(glyphs);
}

/** What to show. */
export interface BoardView {
  fen: string;
  turn: Color;
  check: boolean;
  lastMove: { from: string; to: string } | null;
  /** Legal moves of the side to move (from the server). */
  moves: readonly MoveInfo[];
  /** Who may move pieces now: a colour, both (same device), or nobody. */
  movable: Color | 'both' | null;
  /** The side that may set a premove while its opponent is to move (online and computer games). */
  premovable?: Color | null;
}

/** Board options fixed at creation. */
export interface BoardOptions {
  variant: VariantInfo;
  orientation: Color;
  viewOnly?: boolean;
  /** Called with the chosen move's UCI (after the promotion picker when needed). */
  onMove?: (uci: string) => void;
  /** Accessible names of promotion pieces (`q` → "Queen"). */
  pieceName?: (letter: string) => string;
  /** Accessible name of the board. */
  label?: string;
  /** Called after the board was turned round (the player bars follow it). */
  onFlip?: () => void;
  /** The first position drawn (default: the game's start), so a page opened on a game does not slide its pieces there from the start. */
  fen?: string;
}

/** One chessgroundx board. */
export class Board {
  private readonly api: Api;
  private readonly el: HTMLElement;
  private moves: readonly MoveInfo[] = [];
  private picker: HTMLElement | null = null;
  /** What was shown last, to put back when a promotion is cancelled. */
  private view: BoardView | null = null;

  constructor(
    host: HTMLElement,
    private readonly opts: BoardOptions,
  ) {
    const v = opts.variant;
    host.classList.add('board-host', `board-${v.dims.width}x${v.dims.height}`);
    if (v.family === 'xiangqi') host.classList.add('xq');
    this.el = document.createElement('div');
    this.el.className = 'cg-wrap';
    // the picture is the board itself, not its host: the promotion picker (buttons) is the host's other child,
    // and buttons inside a role="img" would be hidden from screen readers (axe: nested-interactive)
    if (opts.label) {
      this.el.setAttribute('role', 'img');
      this.el.setAttribute('aria-label', opts.label);
    }
    host.appendChild(this.el);
    const config: Config = {
      fen: opts.fen ?? v.startFen,
      orientation: opts.orientation,
      dimensions: v.dims,
      viewOnly: opts.viewOnly ?? false,
      coordinates: false,
      kingRoles: ['k-piece'],
      autoCastle: false,
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 200 },
      // premoves only show where a piece could go: the server judges them once it is the player's turn
      premovable: { enabled: true, premoveFunc: premove(v.name, false, v.dims), castle: v.family === 'western' },
      drawable: { enabled: !opts.viewOnly },
      // chessgroundx rebuilds its DOM on every full redraw (a flip is one) and sizes its
      // container to whole device pixels per square, so the labels go inside that container
      events: { insert: (els) => renderCoords(els.container, v.dims, els.wrap.classList.contains('orientation-black') ? 'black' : 'white') },
      movable: {
        free: false,
        color: undefined,
        showDests: true,
        events: { after: (orig, dest) => this.afterMove(orig, dest) },
      },
    };
    this.api = Chessground(this.el, config);
  }

  /** Shows a position and its legal moves. */
  set(view: BoardView): void {
    this.closePicker();
    this.view = view;
    this.moves = view.moves;
    const dims = this.opts.variant.dims;
    const dests: cg.Dests = new Map();
    if (view.movable) {
      for (const m of view.moves) {
        const from = squareToKey(m.from, dims) as cg.Key | undefined;
        const to = squareToKey(m.to, dims) as cg.Key | undefined;
        if (!from || !to) continue;
        const list = dests.get(from) ?? [];
        if (!list.includes(to)) list.push(to);
        dests.set(from, list);
      }
    }
    const last = view.lastMove
      ? [squareToKey(view.lastMove.from, dims), squareToKey(view.lastMove.to, dims)].filter((k): k is NonNullable<typeof k> => !!k)
      : [];
    this.api.set({
      fen: view.fen,
      turnColor: view.turn,
      check: view.check ? view.turn : false,
      lastMove: last as cg.Key[],
      movable: { color: view.movable ?? view.premovable ?? undefined, dests },
    });
    if (!view.movable && !view.premovable) this.api.cancelPremove();
    if (!view.lastMove) this.api.set({ lastMove: [] });
  }

  /** Turns the board round. */
  flip(): void {
    this.api.toggleOrientation();
    this.opts.onFlip?.();
  }

  /**
   * Plays the premove set while the opponent was to move, if the server's
   * legal moves (the dests) allow it; otherwise it is dropped. The move goes
   * through the same path as a move made by hand (promotion picker included).
   */
  playPremove(): void {
    if (this.api.state.premovable.current && !this.api.playPremove()) this.api.cancelPremove();
  }

  /** Current orientation. */
  orientation(): Color {
    return this.api.state.orientation;
  }

  /** Plays the Atomic explosion animation on these squares. */
  explode(squares: readonly string[]): void {
    const keys = squares
      .map((s) => squareToKey(s, this.opts.variant.dims))
      .filter((k): k is NonNullable<typeof k> => !!k) as cg.Key[];
    if (keys.length) this.api.explode(keys);
  }

  /**
   * Draws arrows over the board (engine suggestions), replacing the last
   * ones; an empty list clears them. Brushes are chessground's (`green`,
   * `blue`, `paleBlue`, …).
   */
  arrows(list: readonly { from: string; to: string; brush: string }[]): void {
    const dims = this.opts.variant.dims;
    const shapes: DrawShape[] = [];
    for (const a of list) {
      const orig = squareToKey(a.from, dims) as cg.Key | undefined;
      const dest = squareToKey(a.to, dims) as cg.Key | undefined;
      if (orig && dest) shapes.push({ orig, dest, brush: a.brush });
    }
    this.api.setAutoShapes(shapes);
  }

  /** Removes the board. */
  destroy(): void {
    this.closePicker();
    this.api.destroy();
  }

  private afterMove(orig: cg.Key, dest: cg.Key): void {
    const dims = this.opts.variant.dims;
    const found = this.moves.filter((m) => squareToKey(m.from, dims) === orig && squareToKey(m.to, dims) === dest);
    if (found.length === 0) return;
    if (found.length === 1 || !found.some((m) => m.promotion)) {
      const m = found[0];
      if (m) this.opts.onMove?.(m.uci);
      return;
    }
    // the mover's colour: chessgroundx has already passed the turn to the other side
    this.openPicker(found, this.api.state.boardState.pieces.get(dest)?.color ?? this.api.state.turnColor);
  }

  private openPicker(choices: readonly MoveInfo[], color: cg.Color): void {
    this.closePicker();
    const order = this.opts.variant.promotions;
    const sorted = [...choices].sort((a, b) => order.indexOf(a.promotion ?? '') - order.indexOf(b.promotion ?? ''));
    const box = document.createElement('div');
    box.className = 'promotion-picker';
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-label', this.opts.pieceName?.('promotion') ?? 'Promotion');
    for (const m of sorted) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `promo promo-${m.promotion ?? ''} ${color}`;
      b.dataset.uci = m.uci;
      b.setAttribute('aria-label', this.opts.pieceName?.(m.promotion ?? '') ?? m.promotion ?? '');
      b.addEventListener('click', () => {
        this.closePicker();
        this.opts.onMove?.(m.uci);
      });
      box.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'promo-cancel';
    cancel.textContent = '×';
    cancel.setAttribute('aria-label', this.opts.pieceName?.('cancel') ?? 'Cancel');
    cancel.addEventListener('click', () => {
      this.closePicker();
      this.api.cancelMove();
      // chessgroundx has already moved the pawn: the position as the server gave it comes back
      if (this.view) this.set(this.view);
      this.opts.onMove?.('');
    });
    box.appendChild(cancel);
    // Escape takes the pawn back, as the × does
    box.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      cancel.click();
    });
    this.el.parentElement?.appendChild(box);
    this.picker = box;
    (box.querySelector('button') as HTMLButtonElement | null)?.focus();
  }

  private closePicker(): void {
    this.picker?.remove();
    this.picker = null;
  }
}
