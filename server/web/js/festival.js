// The Festival on the page: taking a figure back, in words.
import { featureWords } from './names.js';
import { figureWord } from './moves_text.js';

export const festival = {
  id: 'festival',
  moves: { return_figure: (m, on) => `Take back your ${figureWord(m.figure)} from the ${featureWords(m.feature)}${on}` },
};
