// Optional sound (off by default): short tones made with the Web Audio API, no files.
let context = null;
let enabled = false;

/** Turn sound on or off. */
export function setEnabled(on) {
  enabled = Boolean(on);
}

const TONES = {
  card: [[660, 0.05]],
  refuse: [[220, 0.12]],
  turn: [[520, 0.06], [780, 0.08]],
  win: [[523, 0.12], [659, 0.12], [784, 0.2]],
  lose: [[392, 0.15], [330, 0.25]],
};

/** Play one of the page's sounds ("card", "refuse", "turn", "win", "lose"). */
export function play(name) {
  if (!enabled || !window.AudioContext) return;
  try {
    context = context || new AudioContext();
    let at = context.currentTime;
    for (const [frequency, length] of TONES[name] || []) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(context.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch {
    // no audio device: stay silent
  }
}
