// The Peasant Revolts on the page: the revolt tiles set aside.
export const peasantRevolts = {
  id: 'peasant_revolts',
  gameInfo: (game) => (game.set_aside ? [`${game.set_aside} revolt tiles set aside`] : []),
};
