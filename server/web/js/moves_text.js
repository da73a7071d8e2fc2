// A legal move (docs/protocol.md §9) in words, for the buttons of the action bar, and what
// the seat to act is deciding, for the others ("Bob is placing a tile").
import { cardName, featureWords } from './names.js';

const where = (m) => `(${m.x}, ${m.y})`;

// `side`: where the feature lies on its tile ("north", "middle"...), to tell apart two
// features of one kind on the new tile.
export function describeMove(m, side = null) {
  const on = side ? ` (${side})` : '';
  switch (m.type) {
    case 'place_tile': return `Place at ${where(m)}, turned ${m.rotation}°`;
    case 'deploy': {
      if (m.figure === 'shepherd') return `Shepherd in the field${on}`;
      return `Follower on the ${featureWords(m.feature)}${on}${m.protect ? ', protected (−4)' : ''}`;
    }
    case 'pass': return 'Pass';
    case 'flock': return m.choice === 'expand' ? 'Grow the flock (draw a token)' : 'Gather the flock (score it)';
    case 'return_figure': return `Take back your ${m.figure === 'shepherd' ? 'shepherd' : 'follower'} (${featureWords(m.feature)} at ${where(m)})`;
    case 'protect': return `Protect your follower on the ${featureWords(m.feature)} at ${where(m)} (−2)`;
    case 'choose_tile': return m.index === 0 ? 'Keep the first tile' : 'Take the second tile';
    case 'open_gift': {
      const card = cardName(m.card);
      if (m.x === undefined) return `Open ${card}`;
      if (m.card === 'change_position') {
        return `${card}: your follower at ${where(m)} from the ${featureWords(m.feature)} to the ${featureWords(m.to)}${m.protect ? ', protected (−4)' : ''}`;
      }
      return `${card} on the ${featureWords(m.feature)} at ${where(m)}${m.protect ? ', protected (−4)' : ''}`;
    }
    case 'bunny': return `Bunny: ${m.path.map(([x, y]) => `(${x}, ${y})`).join(' → ')}`;
    default: return JSON.stringify(m);
  }
}

export function describeDecision(decision) {
  return {
    place_tile: 'place a tile',
    figure: 'place a figure',
    flock: 'choose Grow or Gather',
    protect: 'protect a follower',
    choose_tile: 'choose a tile',
    bunny: 'move the bunny',
  }[decision] ?? decision;
}
