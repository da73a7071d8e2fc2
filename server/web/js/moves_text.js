// A legal move (docs/protocol.md §9) in words, for the buttons of the action bar, and what
// the seat to act is deciding, for the others ("Bob is placing a tile").
import { cardName, featureWords } from './names.js';

// Squares are told by what stands there, never by coordinates (the board shows none); `side`
// tells where a feature lies on its tile ("north", "middle"...), `toSide` the same for Change
// Position's target, so that two features of one kind never read the same.
export function describeMove(m, side = null, toSide = null) {
  const on = side ? ` (${side})` : '';
  switch (m.type) {
    case 'place_tile': return `Place it here, turned ${m.rotation}°`;
    case 'deploy': {
      if (m.figure === 'shepherd') return `Shepherd in the field${on}`;
      return `Follower on the ${featureWords(m.feature)}${on}${m.protect ? ', protected (−4)' : ''}`;
    }
    case 'pass': return 'Pass';
    case 'flock': return m.choice === 'expand' ? 'Grow the flock (draw a token)' : 'Gather the flock (score it)';
    case 'return_figure': return `Take back your ${m.figure === 'shepherd' ? 'shepherd' : 'follower'} from the ${featureWords(m.feature)}${on}`;
    case 'protect': return `Protect your follower on the ${featureWords(m.feature)}${on} (−2)`;
    case 'choose_tile': return m.index === 0 ? 'Keep the first tile' : 'Take the second tile';
    case 'open_gift': {
      const card = cardName(m.card);
      if (m.x === undefined) return `Open ${card}`;
      if (m.card === 'change_position') {
        const to = toSide ? ` (${toSide})` : '';
        return `${card}: your follower from the ${featureWords(m.feature)}${on} to the ${featureWords(m.to)}${to}${m.protect ? ', protected (−4)' : ''}`;
      }
      return `${card} on the ${featureWords(m.feature)}${on}${m.protect ? ', protected (−4)' : ''}`;
    }
    case 'bunny': return `Bunny: ${bunnyWay(m.path, side)}`;
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

// The bunny's hops as directions from `start` ([x, y]): "north, east".
export function bunnyWay(path, start) {
  if (!start) return `${path.length} ${path.length === 1 ? 'hop' : 'hops'}`;
  const hops = [];
  let [x0, y0] = start;
  for (const [x, y] of path) {
    hops.push(y < y0 ? 'north' : y > y0 ? 'south' : x > x0 ? 'east' : x < x0 ? 'west' : 'stay');
    [x0, y0] = [x, y];
  }
  return hops.join(', then ');
}
