// A legal move (docs/protocol.md §9) in words, for the buttons of the action bar, and what
// the seat to act is deciding, for the others ("Bob is placing a tile").
import { expansionText } from './expansions.js';
import { featureWords } from './names.js';

// A figure in words: an expansion's own figure (the shepherd) or a follower.
export const figureWord = (figure) => expansionText('figures', figure)?.word ?? 'follower';

// Squares are told by what stands there, never by coordinates (the board shows none); `side`
// tells where a feature lies on its tile ("north", "middle"...), `toSide` the same for Change
// Position's target, so that two features of one kind never read the same.
export function describeMove(m, side = null, toSide = null) {
  const on = side ? ` (${side})` : '';
  switch (m.type) {
    case 'place_tile': return `Place it here, turned ${m.rotation}°`;
    case 'deploy': {
      const own = expansionText('figures', m.figure)?.deploy;
      if (own) return own(on);
      return `Follower on the ${featureWords(m.feature)}${on}${m.protect ? ', protected (−4)' : ''}`;
    }
    case 'pass': return 'Pass';
    default: {
      const own = expansionText('moves', m.type);
      return own ? own(m, on, toSide, side) : JSON.stringify(m);
    }
  }
}

export function describeDecision(decision) {
  return { place_tile: 'place a tile', figure: 'place a figure' }[decision] ?? expansionText('decisions', decision) ?? decision;
}
