// An optional short chime when it becomes your turn (Web Audio, no file to load). Off by
// default, and never played when the system asks for reduced motion.
let context = null;

export function playTurnSound() {
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return false;
  try {
    context = context ?? new AudioContext();
    const now = context.currentTime;
    for (const [i, f] of [[0, 660], [1, 880]]) {
      const osc = context.createOscillator(), gain = context.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
      osc.connect(gain).connect(context.destination);
      osc.start(now + i * 0.12);
      osc.stop(now + i * 0.12 + 0.3);
    }
    return true;
  } catch { return false; }
}
