// The Festival on the page: taking a figure back, in words.
import { featureWords } from './names.js';
import { figureWord } from './moves_text.js';

export const festival = {
  id: 'festival',
  order: 4,
  moves: { return_figure: (m, on) => `Take back your ${figureWord(m.figure)} from the ${featureWords(m.feature)}${on}` },
  actions: {
    prompts: {
      figure: (legal) => (legal.some((m) => m.type === 'return_figure')
        ? 'Your turn: put a figure on your tile or take one back (tap a circle), or choose below.' : undefined),
    },
    // A figure of each kind on one spot is a marker of its own.
    markerKeySuffix: { return_figure: (m) => `:${m.figure ?? 'meeple'}` },
  },
};

export default festival;
