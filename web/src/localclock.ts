/**
 * The clock of a same-device game (online games use the server's): Fischer
 * increment, starts after both sides have moved once, as the protocol's
 * room clock does.
 */
import type { Color } from './protocol';

/** Remaining ms per side and which runs since when (epoch ms). */
export interface ClockState {
  initial: number;
  increment: number;
  white: number;
  black: number;
  running: Color | null;
  since: number | null;
}

/** A fresh clock. */
export function newClock(initial: number, increment: number): ClockState {
  return { initial, increment, white: initial, black: initial, running: null, since: null };
}

/** Time left now for each side. */
export function remaining(c: ClockState, now: number): Record<Color, number> {
  const spent = c.running && c.since !== null ? Math.max(0, now - c.since) : 0;
  return {
    white: c.running === 'white' ? Math.max(0, c.white - spent) : c.white,
    black: c.running === 'black' ? Math.max(0, c.black - spent) : c.black,
  };
}

/** The clock after `mover` moved at `now`, with `plies` moves played in total (including this one). */
export function afterMove(c: ClockState, mover: Color, plies: number, now: number): ClockState {
  const left = remaining(c, now);
  const next: Color = mover === 'white' ? 'black' : 'white';
  if (plies < 2) return { ...c, running: null, since: null };
  const running = c.running !== null;
  return {
    ...c,
    white: left.white + (running && mover === 'white' ? c.increment : 0),
    black: left.black + (running && mover === 'black' ? c.increment : 0),
    running: next,
    since: now,
  };
}

/** The clock stopped (game over), keeping what was left. */
export function stop(c: ClockState, now: number): ClockState {
  const left = remaining(c, now);
  return { ...c, white: left.white, black: left.black, running: null, since: null };
}

/** The side whose time ran out, if any. */
export function flagged(c: ClockState, now: number): Color | null {
  if (!c.running) return null;
  return remaining(c, now)[c.running] <= 0 ? c.running : null;
}

/** `m:ss`, or `s.d` under ten seconds. */
export function formatClock(ms: number): string {
  if (ms < 10000) return (Math.max(0, ms) / 1000).toFixed(1);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
