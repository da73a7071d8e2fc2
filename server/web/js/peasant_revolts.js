// The Peasant Revolts on the page: the revolt tiles set aside; the revolt and protection in words.
import { featureWords } from './names.js';

export const peasantRevolts = {
  id: 'peasant_revolts',
  order: 3,
  events: { revolt: (e, { who }) => `${who} drew a revolt tile: a revolt against ${e.kind === 'city' ? 'cities' : `${e.kind}s`}!` },
  reasons: {
    revolt: (who, pts) => `${who}'s protected follower earned ${pts} in the revolt.`,
    protection: (who, pts) => `${who} paid ${pts} to protect a follower.`,
  },
  moves: { protect: (m, on) => `Protect your follower on the ${featureWords(m.feature)}${on} (−2)` },
  decisions: { protect: 'protect a follower' },
  gameInfo: (game) => (game.set_aside ? [`${game.set_aside} revolt tiles set aside`] : []),
  actions: {
    prompts: { protect: () => 'Protect one of your followers for 2 points?' },
    passLabels: { protect: 'Don’t protect' },
    // A protected follower is drawn once, as the unprotected one on the same spot.
    hidesFigure: (m) => Boolean(m.protect),
  },
};

export default peasantRevolts;
