/**
 * Game sounds made with WebAudio at play time (no sound files to license or
 * download): a short wooden click for a move, a heavier one for a capture, a
 * two-tone for check, a noise burst for an Atomic explosion, a chord for the
 * end of the game and a tick for low time. Muted by the "sound" preference.
 *
 * Each sound played leaves a `performance.mark('cpx-sound:<name>')`: the
 * browser tests read those marks, since a headless browser has no ears.
 */
import { prefs } from './settings';

/** The sounds of the game page. */
export type SoundName = 'move' | 'capture' | 'check' | 'explosion' | 'end' | 'lowtime';

let ctx: AudioContext | null = null;
function audio(): AudioContext | null {
  if (ctx) return ctx;
  const Ctor = window.AudioContext as typeof AudioContext | undefined;
  if (!Ctor) return null;
  ctx = new Ctor();
  return ctx;
}

/** Browsers start audio suspended until the user acts: resume on the first key or pointer press. */
export function unlockAudioOnGesture(): void {
  const resume = (): void => {
    void audio()?.resume();
  };
  document.addEventListener('pointerdown', resume, { capture: true });
  document.addEventListener('keydown', resume, { capture: true });
}

/** One enveloped tone: frequency (Hz), start offset and length (s), peak gain, wave. */
function tone(a: AudioContext, freq: number, at: number, len: number, gain: number, type: OscillatorType = 'sine'): void {
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, a.currentTime + at);
  g.gain.setValueAtTime(0.0001, a.currentTime + at);
  g.gain.exponentialRampToValueAtTime(gain, a.currentTime + at + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + at + len);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + at);
  o.stop(a.currentTime + at + len + 0.02);
}

/** A burst of decaying white noise through a low-pass filter. */
function noise(a: AudioContext, len: number, gain: number, cutoff: number): void {
  const buf = a.createBuffer(1, Math.ceil(a.sampleRate * len), a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const src = a.createBufferSource();
  src.buffer = buf;
  const f = a.createBiquadFilter();
  f.type = 'lowpass';
  f.frequency.value = cutoff;
  const g = a.createGain();
  g.gain.value = gain;
  src.connect(f).connect(g).connect(a.destination);
  src.start();
}

/** Plays a sound unless muted. */
export function play(name: SoundName): void {
  if (!prefs().sound) return;
  performance.mark(`cpx-sound:${name}`);
  const a = audio();
  if (!a || a.state === 'closed') return;
  switch (name) {
    case 'move':
      noise(a, 0.06, 0.5, 2200);
      tone(a, 220, 0, 0.05, 0.15, 'triangle');
      break;
    case 'capture':
      noise(a, 0.12, 0.8, 1600);
      tone(a, 150, 0, 0.1, 0.25, 'triangle');
      break;
    case 'check':
      tone(a, 660, 0, 0.12, 0.2, 'square');
      tone(a, 880, 0.1, 0.16, 0.2, 'square');
      break;
    case 'explosion':
      noise(a, 0.5, 1, 700);
      tone(a, 60, 0, 0.4, 0.4, 'sawtooth');
      break;
    case 'end':
      for (const [f, at] of [
        [523, 0],
        [659, 0.12],
        [784, 0.24],
      ] as const)
        tone(a, f, at, 0.5, 0.18);
      break;
    case 'lowtime':
      tone(a, 1000, 0, 0.08, 0.2, 'square');
      tone(a, 1000, 0.18, 0.08, 0.2, 'square');
      break;
  }
}
