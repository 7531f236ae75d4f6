// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { onPrefs, prefs, setPref } from '../src/settings';

describe('preferences', () => {
  beforeEach(() => {
    localStorage.clear();
    // jsdom has no matchMedia: a system in light mode
    window.matchMedia = vi.fn().mockReturnValue({ matches: false, addEventListener: () => undefined }) as unknown as typeof window.matchMedia;
  });

  it('defaults: brown board, characters, sound and coordinates on, the system scheme, a fitted board', () => {
    expect(prefs()).toEqual({ board: 'brown', glyphs: 'native', sound: true, coords: true, scheme: 'system', boardSize: null });
  });

  it('ignores stored values it does not know', () => {
    localStorage.setItem('cpx.board', 'purple');
    localStorage.setItem('cpx.scheme', 'sepia');
    localStorage.setItem('cpx.boardSize', '12');
    localStorage.setItem('cpx.glyphs', 'emoji');
    expect(prefs()).toMatchObject({ board: 'brown', scheme: 'system', boardSize: null, glyphs: 'native' });
  });

  it('remembers a change, applies it to <html> and tells the listeners', () => {
    const seen: unknown[] = [];
    const off = onPrefs((p) => seen.push(p.board));
    setPref('board', 'green');
    setPref('scheme', 'dark');
    setPref('coords', false);
    setPref('boardSize', 512.4);
    off();
    setPref('sound', false);
    expect(prefs()).toEqual({ board: 'green', glyphs: 'native', sound: false, coords: false, scheme: 'dark', boardSize: 512 });
    expect(document.documentElement.dataset).toMatchObject({ board: 'green', scheme: 'dark', coords: 'off' });
    expect(document.getElementById('board-theme')?.textContent).toContain(encodeURIComponent('#86a666'));
    expect(seen).toEqual(['green', 'green', 'green', 'green']);
    setPref('boardSize', null);
    expect(prefs().boardSize).toBeNull();
  });

  it('follows the system when the scheme is "system"', () => {
    window.matchMedia = vi.fn().mockReturnValue({ matches: true, addEventListener: () => undefined }) as unknown as typeof window.matchMedia;
    setPref('scheme', 'system');
    expect(document.documentElement.dataset.scheme).toBe('dark');
    setPref('scheme', 'light');
    expect(document.documentElement.dataset.scheme).toBe('light');
  });
});
