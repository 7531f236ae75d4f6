import { describe, expect, it } from 'vitest';
import { afterMove, flagged, formatClock, newClock, remaining } from '../src/localclock';
import { LocalStore, type KeyValue, type LocalGame } from '../src/store';

class Mem implements KeyValue {
  m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, v);
  }
  removeItem(k: string): void {
    this.m.delete(k);
  }
}

const game = (id: string, updatedAt: number, moves: string[] = []): LocalGame => ({
  id,
  variant: 'xiangqi',
  mode: 'local',
  aiLevel: null,
  human: null,
  startFen: null,
  moves,
  sans: moves,
  outcome: null,
  clock: null,
  createdAt: 0,
  updatedAt,
});

describe('LocalStore', () => {
  it('saves, lists newest first, survives a new store over the same storage, deletes', () => {
    const kv = new Mem();
    const s = new LocalStore(kv);
    s.save(game('a', 1, ['h3e3']));
    s.save(game('b', 5));
    s.save({ ...game('a', 9, ['h3e3', 'h10g8']) });
    const again = new LocalStore(kv);
    expect(again.list().map((g) => g.id)).toEqual(['a', 'b']);
    expect(again.get('a')?.moves).toEqual(['h3e3', 'h10g8']);
    again.remove('a');
    expect(new LocalStore(kv).list().map((g) => g.id)).toEqual(['b']);
    expect(again.get('a')).toBeUndefined();
  });
  it('ignores corrupt or foreign records', () => {
    const kv = new Mem();
    const s = new LocalStore(kv);
    s.save(game('ok', 1));
    kv.setItem('cpx.game.bad', '{not json');
    kv.setItem('cpx.game.odd', JSON.stringify({ ...game('odd', 2), variant: 'shogi' }));
    kv.setItem('cpx.games', JSON.stringify(['ok', 'bad', 'odd', 'missing']));
    expect(s.list().map((g) => g.id)).toEqual(['ok']);
    kv.setItem('cpx.games', 'garbage');
    expect(s.list()).toEqual([]);
  });
});

describe('local clock', () => {
  it('starts after both sides moved, adds the increment, flags', () => {
    let c = newClock(60000, 2000);
    c = afterMove(c, 'white', 1, 1000);
    expect(c.running).toBeNull();
    c = afterMove(c, 'black', 2, 5000);
    expect(c.running).toBe('white');
    expect(remaining(c, 15000)).toEqual({ white: 50000, black: 60000 });
    c = afterMove(c, 'white', 3, 15000);
    expect(c.white).toBe(52000);
    expect(c.running).toBe('black');
    expect(flagged(c, 15000 + 59999)).toBeNull();
    expect(flagged(c, 15000 + 60000)).toBe('black');
  });
  it('formats', () => {
    expect(formatClock(180000)).toBe('3:00');
    expect(formatClock(9500)).toBe('9.5');
    expect(formatClock(3723000)).toBe('1:02:03');
  });
});
